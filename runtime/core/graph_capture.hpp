// acl-cpu runtime: how the runtime's calls behave while streams are captured
// into a graph (aclmdlRICaptureBegin .. aclmdlRICaptureEnd): CANN's rules,
// and the event records and waits that build the graph's cross-stream edges.
#pragma once

#include "core/internal.hpp"

#include <memory>
#include <thread>

#include "acl/acl_rt.h"

namespace aclcpu::detail {

class Device;
class Event;
class Stream;

/// Counts a capture begun in `mode` by thread `owner` while it runs (the
/// model counts it from its begin to its end, whatever ends it).
void count_capture(aclmdlRICaptureMode mode, std::thread::id owner);
void uncount_capture(aclmdlRICaptureMode mode, std::thread::id owner);

/// aclmdlRICaptureThreadExchangeMode: sets the calling thread's mode and
/// returns the previous one (GLOBAL for a thread that never set it).
aclmdlRICaptureMode exchange_thread_capture_mode(aclmdlRICaptureMode mode) noexcept;

/// The check before a call CANN calls unsafe during capture (aclrtMemcpy,
/// aclrtMemset, aclrtMemcpy2d, an asynchronous copy of pageable host
/// memory): refused, with code (reported), when the calling thread's mode is
/// GLOBAL and any GLOBAL capture is running or this thread runs a
/// non-RELAXED capture, or when its mode is THREAD_LOCAL and this thread
/// runs a non-RELAXED capture; a RELAXED thread is never refused.
aclError check_unsafe_call(const char* api, aclError code);

/// True while any stream of the process is captured (one relaxed load): no
/// event has a live graph record and no stream a capturing model otherwise.
bool any_capture_running() noexcept;

/// Refuses api on a captured stream (synchronising, querying, destroying,
/// configuring it) with ACL_ERROR_RT_STREAM_CAPTURED, reported.
aclError refuse_captured_stream(const Stream& stream, const char* api);
/// Refuses api (a device- or context-wide synchronisation) while a stream
/// of device is captured, with ACL_ERROR_RT_STREAM_CAPTURED, reported.
aclError refuse_device_capturing(const Device& device, const char* api);
/// Refuses api (synchronising, querying, timing an event) on an event
/// recorded in a capture still running: ACL_ERROR_RT_EVENT_CAPTURED, reported.
aclError refuse_captured_event(const Event& event, const char* api);

/// aclrtRecordEvent of event on stream when either takes part in a capture:
/// the record becomes a node of the capturing model (an IPC event is
/// refused, as by CANN).  Sets `handled` when it did (or refused with CANN's
/// code); otherwise the record is an ordinary one.  Thread-safety: any
/// thread; records and waits race as the calls themselves do.
aclError record_event_in_capture(Event& event, const std::shared_ptr<Stream>& stream, const char* api,
                                 bool& handled);
/// aclrtStreamWaitEvent of waiter for event when either takes part in a
/// capture: the waiter's next captured work follows the record's nodes,
/// the waiter joining the capture if it was not in it; a wait for an
/// ACL_EVENT_EXTERNAL event becomes a late node (capture_external_wait); an
/// IPC event is refused, as by CANN.  `handled` and thread-safety as above.
aclError wait_event_in_capture(const std::shared_ptr<Stream>& waiter, const std::shared_ptr<Event>& event,
                               const char* api, bool& handled);
/// aclrtResetEvent of event on a captured stream: CANN's checks; `handled`
/// is set when it refused.
aclError check_reset_in_capture(const Event& event, const Stream& stream, const char* api, bool& handled);

/// aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag with the external
/// flag (04-03): on a captured stream, the record is made by every replay
/// for work outside the model, and the wait waits at every replay for the
/// event's latest record, whoever made it; elsewhere CANN's
/// ACL_ERROR_RT_STREAM_NOT_CAPTURED.
aclError record_external_in_capture(const std::shared_ptr<Event>& event, Stream& stream, const char* api);
aclError wait_external_in_capture(const std::shared_ptr<Stream>& waiter, const std::shared_ptr<Event>& event,
                                  const char* api);

/// Refuses work (api) on a persistent stream that no model is building from:
/// never bound, or its model's build has ended.  ACL_ERROR_RT_STREAM_MODEL,
/// reported.
aclError refuse_idle_persistent(const Stream& stream, const char* api);

}  // namespace aclcpu::detail
