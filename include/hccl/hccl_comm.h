/*
 * acl-cpu: AscendCL on the CPU.
 *
 * hccl/hccl_comm.h -- as CANN's: communicators (creation, queries,
 * destruction), the process-wide HCCL settings and error strings.
 *
 * A communicator is one rank's membership of a group.  Creating one is
 * collective: HcclCommInitRootInfo returns once every rank of the group has
 * called it (or fails with HCCL_E_TIMEOUT after HCCL_CONNECT_TIMEOUT
 * seconds, 120 by default).  Call it on the thread that set the rank's
 * device; the rank's collectives then run on streams of that device.
 */
#ifndef HCCL_COMM_H_
#define HCCL_COMM_H_

#include <stddef.h>

#include "acl/acl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the root's locator into rootInfo; the root rank's process calls it
 * once and hands the bytes to every rank. */
extern HCCL_API HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);

/* Rank `rank` of nRanks joins the group rootInfo names; blocks until all
 * have joined. */
extern HCCL_API HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
    HcclComm *comm);
extern HCCL_API HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
    const HcclCommConfig *config, HcclComm *comm);

/* Rank `rank` of the group a rank table file (JSON) describes. */
extern HCCL_API HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm);
extern HCCL_API HcclResult HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank, HcclCommConfig *config,
    HcclComm *comm);

/* One communicator per device of devices[0..ndev), rank i on devices[i], all
 * in this process, created by one call. */
extern HCCL_API HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);

/* Ends this rank's membership.  Collectives of the group still waiting for
 * this rank fail (peers see HCCL_E_REMOTE from HcclGetCommAsyncError); call
 * it after synchronising the rank's streams. */
extern HCCL_API HcclResult HcclCommDestroy(HcclComm comm);

extern HCCL_API HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize);
extern HCCL_API HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank);
/* commName must hold COMM_NAME_MAX_LENGTH bytes. */
extern HCCL_API HcclResult HcclGetCommName(HcclComm comm, char *commName);

/* Every rank's stream waits until every rank reached the barrier. */
extern HCCL_API HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);

/* The first failure of a collective of comm since its creation. */
extern HCCL_API HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError);
extern HCCL_API const char *HcclGetErrorString(HcclResult code);

extern HCCL_API HcclResult HcclSetConfig(HcclConfig config, union HcclConfigValue configValue);
extern HCCL_API HcclResult HcclGetConfig(HcclConfig config, union HcclConfigValue *configValue);

/* The fields of HcclCommConfig below this HcclCommConfigCapability value
 * are understood by the library. */
extern HCCL_API uint32_t HcclGetCommConfigCapability(void);

/* Fills config with "not set" for every field and the header by which the
 * library recognises the structure. */
static inline void HcclCommConfigInit(HcclCommConfig *config)
{
    struct HcclCommConfigHeader {
        size_t size;
        uint32_t magicWord;
        uint32_t version;
        uint64_t reserved;
    } *header;
    if (config == NULL) {
        return;
    }
    header = (struct HcclCommConfigHeader *)(void *)config;
    header->size = sizeof(HcclCommConfig);
    header->magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
    header->version = HCCL_COMM_CONFIG_VERSION;
    header->reserved = 0;
    config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
    config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
    config->hcclCommName[0] = '\0';
    config->hcclUdi[0] = '\0';
    config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
    config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
    config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
    config->hcclWorldRankID = 0;
    config->hcclJobID = 0;
    config->aclGraphZeroCopyEnable = 0;
    config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
    config->hcclAlgo[0] = '\0';
    config->hcclRetryEnable[0] = '\0';
    config->hcclRetryParams[0] = '\0';
    config->hcclBufferName[0] = '\0';
    config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
    config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
}

#ifdef __cplusplus
}
#endif

#endif /* HCCL_COMM_H_ */
