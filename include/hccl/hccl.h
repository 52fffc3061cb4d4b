/*
 * acl-cpu: AscendCL on the CPU.
 *
 * hccl/hccl.h -- as CANN's: the collective and point-to-point operations.
 *
 * Every operation is stream work of the calling rank: it takes its place on
 * `stream` when called, returns at once, and completes -- in the order of
 * the stream, after the work before it -- when the rank's output is final
 * and its input no longer read by any rank.  Every rank of the communicator
 * must make the same sequence of collective calls with matching arguments;
 * calls that do not match, or a rank that does not come within the
 * communicator's execution timeout (HCCL_EXEC_TIMEOUT seconds, or the
 * configuration's hcclExecTimeOut), fail the stream (its next
 * synchronisation reports the error) and HcclGetCommAsyncError tells the
 * HCCL code.  Counts are elements of dataType.
 */
#ifndef HCCL_H_
#define HCCL_H_

#include "acl/acl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* recvBuf of every rank = sendBuf of all ranks combined with op. */
extern HCCL_API HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
    HcclReduceOp op, HcclComm comm, aclrtStream stream);

/* buf of every rank = buf of root. */
extern HCCL_API HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
    aclrtStream stream);

/* recvBuf of rank r = elements [r * recvCount, (r + 1) * recvCount) of every
 * rank's sendBuf combined with op. */
extern HCCL_API HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
    HcclReduceOp op, HcclComm comm, aclrtStream stream);

/* recvBuf of rank r (recvCount elements) = the sendCounts[r] elements at
 * sendBuf + sendDispls[r] of every rank, combined with op (sum, max or min);
 * sendCounts and sendDispls are uint64_t[rankSize] in host memory, in
 * elements. */
extern HCCL_API HcclResult HcclReduceScatterV(void *sendBuf, const void *sendCounts, const void *sendDispls,
    void *recvBuf, uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm, aclrtStream stream);

/* recvBuf of rank r = elements [r * recvCount, (r + 1) * recvCount) of root's sendBuf. */
extern HCCL_API HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
    uint32_t root, HcclComm comm, aclrtStream stream);

/* recvBuf of every rank = every rank's sendBuf, in rank order. */
extern HCCL_API HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
    HcclComm comm, aclrtStream stream);

/* The sendCount elements of rank i's sendBuf land at recvBuf + recvDispls[i]
 * of every rank (recvCounts[i] elements); recvCounts and recvDispls are
 * uint64_t[rankSize] in host memory, in elements. */
extern HCCL_API HcclResult HcclAllGatherV(void *sendBuf, uint64_t sendCount, void *recvBuf, const void *recvCounts,
    const void *recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream);

/* The next HcclRecv of destRank from this rank receives sendBuf. */
extern HCCL_API HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
    HcclComm comm, aclrtStream stream);
extern HCCL_API HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
    HcclComm comm, aclrtStream stream);

/* sendCountMatrix[i * rankSize + j] elements go from rank i to rank j, packed
 * in rank order in both buffers. */
extern HCCL_API HcclResult HcclAlltoAllVC(const void *sendBuf, const void *sendCountMatrix, HcclDataType sendType,
    const void *recvBuf, HcclDataType recvType, HcclComm comm, aclrtStream stream);

/* sendCounts[j] elements from sendBuf + sdispls[j] go to rank j, which
 * receives them at recvBuf + rdispls[i] (recvCounts[i] elements); the arrays
 * are uint64_t[rankSize] in host memory. */
extern HCCL_API HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts, const void *sdispls,
    HcclDataType sendType, const void *recvBuf, const void *recvCounts, const void *rdispls, HcclDataType recvType,
    HcclComm comm, aclrtStream stream);

/* Block j of sendCount elements goes to rank j, which receives it as block i
 * of recvBuf. */
extern HCCL_API HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType,
    const void *recvBuf, uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream);

/* recvBuf of root = sendBuf of all ranks combined with op. */
extern HCCL_API HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
    HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);

/* The sends and receives of sendRecvInfo, all posted at once (a ring of
 * sends and receives in one batch cannot deadlock). */
extern HCCL_API HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum, HcclComm comm,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_H_ */
