// acl-cpu runtime API: DVPP (acl/ops/acl_dvpp.h) -- JPEG/PNG codecs, video
// decoding and encoding, and the VPC image operations of the Ascend chip's
// media processing unit.  acl-cpu emulates the AI Cores, not that unit: every
// DVPP function answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT with the reason, or
// (a getter or constructor) its "nothing" after reporting it, so that
// programs that link DVPP run up to the first call and learn why.
// CANN declares DVPP only for programs that ask for it.
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "api/unsupported.hpp"

using aclcpu::api::not_supported;

namespace {

constexpr char kNoDvpp[] =
    "DVPP is the media processing unit of the Ascend chip (image and video codecs, VPC), which acl-cpu does not "
    "emulate; decode and transform images on the host";

}  // namespace

extern "C" {

aclError acldvppMalloc(void**, size_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppFree(void*) { return not_supported(__func__, kNoDvpp); }
acldvppChannelDesc* acldvppCreateChannelDesc() { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyChannelDesc(acldvppChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppPicDesc* acldvppCreatePicDesc() { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyPicDesc(acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescData(acldvppPicDesc*, void*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescSize(acldvppPicDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescFormat(acldvppPicDesc*, acldvppPixelFormat) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescWidth(acldvppPicDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescHeight(acldvppPicDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescWidthStride(acldvppPicDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescHeightStride(acldvppPicDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetPicDescRetCode(acldvppPicDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
void* acldvppGetPicDescData(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetPicDescSize(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetPicDescWidth(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetPicDescHeight(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppRoiConfig* acldvppCreateRoiConfig(uint32_t, uint32_t, uint32_t, uint32_t) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppDestroyRoiConfig(acldvppRoiConfig*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetRoiConfigLeft(acldvppRoiConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetRoiConfigRight(acldvppRoiConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetRoiConfigTop(acldvppRoiConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetRoiConfigBottom(acldvppRoiConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetRoiConfig(acldvppRoiConfig*, uint32_t, uint32_t, uint32_t, uint32_t) {
    return not_supported(__func__, kNoDvpp);
}
acldvppResizeConfig* acldvppCreateResizeConfig() { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyResizeConfig(acldvppResizeConfig*) { return not_supported(__func__, kNoDvpp); }
acldvppJpegeConfig* acldvppCreateJpegeConfig() { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig*) { return not_supported(__func__, kNoDvpp); }
aclvdecChannelDesc* aclvdecCreateChannelDesc() { return not_supported(__func__, kNoDvpp); }
aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSetChannelDescChannelId(aclvdecChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSetChannelDescThreadId(aclvdecChannelDesc*, uint64_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSetChannelDescCallback(aclvdecChannelDesc*, aclvdecCallback) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvdecSetChannelDescEnType(aclvdecChannelDesc*, acldvppStreamFormat) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvdecSetChannelDescOutPicFormat(aclvdecChannelDesc*, acldvppPixelFormat) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvdecSetChannelDescOutPicWidth(aclvdecChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSetChannelDescOutPicHeight(aclvdecChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSetChannelDescRefFrameNum(aclvdecChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSetChannelDescBitDepth(aclvdecChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvdecGetChannelDescChannelId(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint64_t aclvdecGetChannelDescThreadId(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclvdecCallback aclvdecGetChannelDescCallback(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppStreamFormat aclvdecGetChannelDescEnType(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppPixelFormat aclvdecGetChannelDescOutPicFormat(const aclvdecChannelDesc*) {
    return not_supported(__func__, kNoDvpp);
}
uint32_t aclvdecGetChannelDescOutPicWidth(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvdecGetChannelDescOutPicHeight(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvdecGetChannelDescBitDepth(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvdecGetChannelDescRefFrameNum(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclvencChannelDesc* aclvencCreateChannelDesc() { return not_supported(__func__, kNoDvpp); }
aclError aclvencDestroyChannelDesc(aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescThreadId(aclvencChannelDesc*, uint64_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescCallback(aclvencChannelDesc*, aclvencCallback) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvencSetChannelDescEnType(aclvencChannelDesc*, acldvppStreamFormat) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc*, acldvppPixelFormat) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvencSetChannelDescPicWidth(aclvencChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescPicHeight(aclvencChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescKeyFrameInterval(aclvencChannelDesc*, uint32_t) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc*, void*) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescBufSize(aclvencChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescRcMode(aclvencChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescSrcRate(aclvencChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescMaxBitRate(aclvencChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetChannelDescParam(aclvencChannelDesc*, aclvencChannelDescParamType, size_t, const void*) {
    return not_supported(__func__, kNoDvpp);
}
void* aclvencGetChannelDescBufAddr(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvencGetChannelDescBufSize(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvencGetChannelDescChannelId(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint64_t aclvencGetChannelDescThreadId(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclvencCallback aclvencGetChannelDescCallback(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppStreamFormat aclvencGetChannelDescEnType(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppPixelFormat aclvencGetChannelDescPicFormat(const aclvencChannelDesc*) {
    return not_supported(__func__, kNoDvpp);
}
uint32_t aclvencGetChannelDescPicWidth(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvencGetChannelDescPicHeight(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvencGetChannelDescRcMode(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvencGetChannelDescSrcRate(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError aclvencGetChannelDescParam(const aclvencChannelDesc*, aclvencChannelDescParamType, size_t, size_t*, void*) {
    return not_supported(__func__, kNoDvpp);
}
uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig*) { return not_supported(__func__, kNoDvpp); }
uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig*) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig*, uint8_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSetFrameConfigEos(aclvencFrameConfig*, uint8_t) { return not_supported(__func__, kNoDvpp); }
aclError aclvencDestroyFrameConfig(aclvencFrameConfig*) { return not_supported(__func__, kNoDvpp); }
aclvencFrameConfig* aclvencCreateFrameConfig() { return not_supported(__func__, kNoDvpp); }
aclError aclvencCreateChannel(aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError aclvencDestroyChannel(aclvencChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError aclvencSendFrame(aclvencChannelDesc*, acldvppPicDesc*, void*, aclvencFrameConfig*, void*) {
    return not_supported(__func__, kNoDvpp);
}
acldvppStreamDesc* acldvppCreateStreamDesc() { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyStreamDesc(acldvppStreamDesc*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetStreamDescData(acldvppStreamDesc*, void*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetStreamDescSize(acldvppStreamDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetStreamDescFormat(acldvppStreamDesc*, acldvppStreamFormat) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppSetStreamDescTimestamp(acldvppStreamDesc*, uint64_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetStreamDescRetCode(acldvppStreamDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetStreamDescEos(acldvppStreamDesc*, uint8_t) { return not_supported(__func__, kNoDvpp); }
void* acldvppGetStreamDescData(const acldvppStreamDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetStreamDescSize(const acldvppStreamDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppStreamFormat acldvppGetStreamDescFormat(const acldvppStreamDesc*) { return not_supported(__func__, kNoDvpp); }
uint64_t acldvppGetStreamDescTimestamp(const acldvppStreamDesc*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetStreamDescRetCode(const acldvppStreamDesc*) { return not_supported(__func__, kNoDvpp); }
uint8_t acldvppGetStreamDescEos(const acldvppStreamDesc*) { return not_supported(__func__, kNoDvpp); }
aclvdecFrameConfig* aclvdecCreateFrameConfig() { return not_supported(__func__, kNoDvpp); }
aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppJpegGetImageInfo(const void*, uint32_t, uint32_t*, uint32_t*, int32_t*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppJpegGetImageInfoV2(const void*, uint32_t, uint32_t*, uint32_t*, int32_t*, acldvppJpegFormat*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppJpegPredictEncSize(const acldvppPicDesc*, const acldvppJpegeConfig*, uint32_t*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppJpegPredictDecSize(const void*, uint32_t, acldvppPixelFormat, uint32_t*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppPngGetImageInfo(const void*, uint32_t, uint32_t*, uint32_t*, int32_t*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppPngPredictDecSize(const void*, uint32_t, acldvppPixelFormat, uint32_t*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppCreateChannel(acldvppChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyChannel(acldvppChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppVpcResizeAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppResizeConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcCropAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcCropResizeAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, acldvppResizeConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcBatchCropAsync(acldvppChannelDesc*, acldvppBatchPicDesc*, uint32_t*, uint32_t, acldvppBatchPicDesc*, acldvppRoiConfig*[], aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc*, acldvppBatchPicDesc*, uint32_t*, uint32_t, acldvppBatchPicDesc*, acldvppRoiConfig*[], acldvppResizeConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, acldvppRoiConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, acldvppRoiConfig*, acldvppRoiConfig*, acldvppResizeConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc*, acldvppBatchPicDesc*, uint32_t*, uint32_t, acldvppBatchPicDesc*, acldvppRoiConfig*[], acldvppRoiConfig*[], aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcBatchCropResizePasteAsync(acldvppChannelDesc*, acldvppBatchPicDesc*, uint32_t*, uint32_t, acldvppBatchPicDesc*, acldvppRoiConfig*[], acldvppRoiConfig*[], acldvppResizeConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppJpegDecodeAsync(acldvppChannelDesc*, const void*, uint32_t, acldvppPicDesc*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppJpegEncodeAsync(acldvppChannelDesc*, acldvppPicDesc*, const void*, uint32_t*, acldvppJpegeConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppPngDecodeAsync(acldvppChannelDesc*, const void*, uint32_t, acldvppPicDesc*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvdecCreateChannel(aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecDestroyChannel(aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSendFrame(aclvdecChannelDesc*, acldvppStreamDesc*, acldvppPicDesc*, aclvdecFrameConfig*, void*) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvdecSendSkippedFrame(aclvdecChannelDesc*, acldvppStreamDesc*, aclvdecFrameConfig*, void*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcConvertColorAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcPyrDownAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppPicDesc*, void*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppSetChannelDescMode(acldvppChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig*, uint32_t) {
    return not_supported(__func__, kNoDvpp);
}
uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig*) { return not_supported(__func__, kNoDvpp); }
aclError aclvdecSetChannelDescOutMode(aclvdecChannelDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
uint32_t aclvdecGetChannelDescOutMode(const aclvdecChannelDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppBatchPicDesc* acldvppCreateBatchPicDesc(uint32_t) { return not_supported(__func__, kNoDvpp); }
acldvppPicDesc* acldvppGetPicDesc(acldvppBatchPicDesc*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc*) { return not_supported(__func__, kNoDvpp); }
acldvppLutMap* acldvppCreateLutMap() { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyLutMap(acldvppLutMap*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetLutMapDims(const acldvppLutMap*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppGetLutMapData(const acldvppLutMap*, uint32_t, uint8_t**, uint32_t*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcEqualizeHistAsync(const acldvppChannelDesc*, const acldvppPicDesc*, acldvppPicDesc*, const acldvppLutMap*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
acldvppBorderConfig* acldvppCreateBorderConfig() { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetBorderConfigValue(acldvppBorderConfig*, uint32_t, double) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppSetBorderConfigBorderType(acldvppBorderConfig*, acldvppBorderType) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppSetBorderConfigTop(acldvppBorderConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetBorderConfigBottom(acldvppBorderConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetBorderConfigLeft(acldvppBorderConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
aclError acldvppSetBorderConfigRight(acldvppBorderConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
double acldvppGetBorderConfigValue(const acldvppBorderConfig*, uint32_t) { return not_supported(__func__, kNoDvpp); }
acldvppBorderType acldvppGetBorderConfigBorderType(const acldvppBorderConfig*) {
    return not_supported(__func__, kNoDvpp);
}
uint32_t acldvppGetBorderConfigTop(const acldvppBorderConfig*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetBorderConfigBottom(const acldvppBorderConfig*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetBorderConfigLeft(const acldvppBorderConfig*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetBorderConfigRight(const acldvppBorderConfig*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyBorderConfig(acldvppBorderConfig*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppVpcMakeBorderAsync(const acldvppChannelDesc*, const acldvppPicDesc*, acldvppPicDesc*, const acldvppBorderConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppVpcCalcHistAsync(acldvppChannelDesc*, acldvppPicDesc*, acldvppHist*, void*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
acldvppHist* acldvppCreateHist() { return not_supported(__func__, kNoDvpp); }
aclError acldvppDestroyHist(acldvppHist*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetHistDims(acldvppHist*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppGetHistData(acldvppHist*, uint32_t, uint32_t**, uint16_t*) { return not_supported(__func__, kNoDvpp); }
uint32_t acldvppGetHistRetCode(acldvppHist*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppClearHist(acldvppHist*) { return not_supported(__func__, kNoDvpp); }
aclError acldvppVpcBatchCropResizeMakeBorderAsync(acldvppChannelDesc*, acldvppBatchPicDesc*, uint32_t*, uint32_t, acldvppBatchPicDesc*, acldvppRoiConfig*[], acldvppBorderConfig*[], acldvppResizeConfig*, aclrtStream) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppSetChannelDescParam(acldvppChannelDesc*, acldvppChannelDescParamType, size_t, const void*) {
    return not_supported(__func__, kNoDvpp);
}
aclError acldvppGetChannelDescParam(const acldvppChannelDesc*, acldvppChannelDescParamType, size_t, size_t*, void*) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvdecSetChannelDescParam(aclvdecChannelDesc*, aclvdecChannelDescParamType, size_t, const void*) {
    return not_supported(__func__, kNoDvpp);
}
aclError aclvdecGetChannelDescParam(const aclvdecChannelDesc*, aclvdecChannelDescParamType, size_t, size_t*, void*) {
    return not_supported(__func__, kNoDvpp);
}
}  // extern "C"
