#!/usr/bin/env bash
# Runs the whole test suite and every sample with the stream race checker on
# (ACLCPU_CHECK=race), aborting at the first report: a correct program must
# produce none.  Excluded are the tests whose programs race on purpose, to
# exercise what an unsynchronised stream does (the checker reports them, as
# it should):
#   - host reads or frees while a gate holds the stream that writes:
#       CallbackTest.BlockingCallbackHoldsLaterWork, CallbackTest.HostFuncRunsOnARuntimeThreadAndHoldsLaterWork,
#       EventTest.StreamWaitEventOrdersTwoStreams, MemoryTest.MemsetAsyncRunsOnTheStream,
#       ExecutorLifetime.QueuedRunsKeepTheAddressesTheyWereEnqueuedWith,
#       EventExtrasTest.FlaggedRecordAndWaitOrderTwoStreams, NotifyTest.WaitHoldsTheStreamUntilTheRecord,
#       CountNotifyTest.WaitHoldsTheStreamUntilTheCountIsReached,
#       ValueWaitTest.WaitHoldsTheStreamUntilAnotherStreamWrites,
#       GraphCapture.AValueWaitHoldsEachReplayUntilTheWordSatisfiesIt,
#       GraphCapture.AReplayWaitsForAnExternalEventRecordedOutsideTheModel,
#       GraphCapture.AReplayWaitsForAnExternalRecordMadeBeforeTheCapture
#   - host writes what a held stream's queued task will read when it runs:
#       MemoryExtrasTest.MemcpyAsyncWithOffsetReadsTheBasesWhenItRuns
#   - memory freed under pending work, to test device-memory checking:
#       MemcheckTest.AsyncCopyIntoAFreedBlockFaultsAndWritesNothing, MemcheckTest.AsyncSetOfAFreedBlockFaults,
#       MemcheckTest.FaultStaysOnItsStreamAndStopModeSkipsLaterWork
#   - the checker's own tests and planted-race sample, which set the switches themselves:
#       RaceChecker*, sample.race_sample
#   - the schedule sample's planted missing event, and the schedule explorer
#     hunting it (a fatal report would end every run alike, leaving nothing to find):
#       sample.schedule_sample, sample.schedule_sample_explored
set -euo pipefail
build_dir="${1:-${ACLCPU_BUILD_DIR:-$(cd "$(dirname "$0")/.." && pwd)/build}}"
racing_on_purpose='^(CallbackTest\.BlockingCallbackHoldsLaterWork|CallbackTest\.HostFuncRunsOnARuntimeThreadAndHoldsLaterWork'
racing_on_purpose+='|EventTest\.StreamWaitEventOrdersTwoStreams|MemoryTest\.MemsetAsyncRunsOnTheStream'
racing_on_purpose+='|ExecutorLifetime\.QueuedRunsKeepTheAddressesTheyWereEnqueuedWith|MemcheckTest\.AsyncCopyIntoAFreedBlockFaultsAndWritesNothing'
racing_on_purpose+='|MemcheckTest\.AsyncSetOfAFreedBlockFaults|MemcheckTest\.FaultStaysOnItsStreamAndStopModeSkipsLaterWork'
racing_on_purpose+='|EventExtrasTest\.FlaggedRecordAndWaitOrderTwoStreams|NotifyTest\.WaitHoldsTheStreamUntilTheRecord'
racing_on_purpose+='|CountNotifyTest\.WaitHoldsTheStreamUntilTheCountIsReached|ValueWaitTest\.WaitHoldsTheStreamUntilAnotherStreamWrites'
racing_on_purpose+='|MemoryExtrasTest\.MemcpyAsyncWithOffsetReadsTheBasesWhenItRuns'
racing_on_purpose+='|GraphCapture\.(AValueWaitHoldsEachReplayUntilTheWordSatisfiesIt'
racing_on_purpose+='|AReplayWaitsForAnExternalEventRecordedOutsideTheModel'
racing_on_purpose+='|AReplayWaitsForAnExternalRecordMadeBeforeTheCapture)'
racing_on_purpose+='|RaceChecker.*|sample\.race_sample|sample\.schedule_sample(_explored)?)$'
echo "== race checker: whole suite and samples with ACLCPU_CHECK=race, fatal on the first report"
ACLCPU_CHECK=race ACLCPU_CHECK_FATAL=1 ctest --test-dir "$build_dir" -E "$racing_on_purpose" --output-on-failure -j "$(nproc)"
