/*
 * acl-cpu: AscendCL on the CPU.
 *
 * mstx/ms_tools_ext.h -- the MindStudio Tools Extension markers (mstx*):
 * the same declarations as the CANN toolkit's mstx/ms_tools_ext.h, exported
 * by libms_tools_ext.so (and by libmsprofiler.so and libascendcl.so, which
 * are one library in acl-cpu).  C99 and C++11 clean.
 *
 * In acl-cpu, marks and ranges land on the timeline trace that is being
 * written -- the aclprofStart..aclprofStop collection's, else the ACLCPU_TRACE
 * file's: on the calling host thread, and, when a stream is given, as an item
 * in that stream's order.  With no trace being written they cost a lookup
 * and record nothing, as on a device with no profiling tool attached.
 *
 * Thread-safety: every function may be called from any thread.  A range may
 * end on another thread than the one that started it.
 */
#ifndef INC_EXTERNAL_MS_TOOLS_EXT_H_
#define INC_EXTERNAL_MS_TOOLS_EXT_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The range id no range has: what a failed range start returns. */
#define MSTX_INVALID_ID 0

typedef uint64_t mstxRangeId;

struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
/* A named group of marks and ranges (mstxDomainCreateA). */
typedef mstxDomainRegistration_t* mstxDomainHandle_t;

/* An instant event named message (at most 255 bytes): on the calling thread,
 * and in stream's order when stream is not NULL.  A NULL or too long message
 * records nothing. */
ACL_FUNC_VISIBILITY void mstxMarkA(const char* message, aclrtStream stream);

/* Opens a range named message (as mstxMarkA) and returns its id, or
 * MSTX_INVALID_ID when message is refused. */
ACL_FUNC_VISIBILITY mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream);

/* Closes the range id; an id not open (never started, ended already, or of a
 * domain) is ignored. */
ACL_FUNC_VISIBILITY void mstxRangeEnd(mstxRangeId id);

/* A domain named name: 1 to 1023 bytes of letters, digits and '_'.  NULL when
 * the name is refused.  Creating a live name again returns the same domain. */
ACL_FUNC_VISIBILITY mstxDomainHandle_t mstxDomainCreateA(const char* name);

/* Destroys a domain; its marks and ranges are refused afterwards. */
ACL_FUNC_VISIBILITY void mstxDomainDestroy(mstxDomainHandle_t handle);

/* mstxMarkA in a domain; nothing is recorded for a destroyed domain. */
ACL_FUNC_VISIBILITY void mstxDomainMarkA(mstxDomainHandle_t handle, const char* message, aclrtStream stream);

/* mstxRangeStartA in a domain; MSTX_INVALID_ID for a destroyed domain. */
ACL_FUNC_VISIBILITY mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t handle, const char* message,
                                                      aclrtStream stream);

/* Closes a range that mstxDomainRangeStartA opened in this domain. */
ACL_FUNC_VISIBILITY void mstxDomainRangeEnd(mstxDomainHandle_t handle, mstxRangeId id);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_MS_TOOLS_EXT_H_ */
