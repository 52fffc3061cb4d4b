// acl-cpu runtime: kernel binaries, their functions and launches (acl_rt.h).
//
// Every entry point here works on a device kernel binary: an object file
// compiled for the AI Cores (or the AI CPU) that the runtime loads into
// device memory and starts on numBlocks cores.  acl-cpu has no AI Core and
// no such binary can run on the host; its operators are host code reached
// through aclnn.  So each of these is CANN's "feature not supported", with
// the reason, rather than a silent success that would launch nothing.
#include "acl/acl_rt.h"
#include "api/unsupported.hpp"

using aclcpu::api::not_supported;

namespace {

constexpr char kBinaryWhy[] =
    "kernel binaries are AI Core / AI CPU object code; acl-cpu has no such cores to load them on (its operators are "
    "host code reached through aclnn)";
constexpr char kLaunchWhy[] =
    "launching a kernel runs a device binary's function on AI Cores; acl-cpu has no AI Cores and cannot load kernel "
    "binaries";
constexpr char kSymbolWhy[] =
    "device symbols are global variables of a loaded kernel binary; acl-cpu cannot load kernel binaries";

}  // namespace

extern "C" {

/// aclrtCreateBinary returns a handle, not a code: it reports the same
/// error (aclGetRecentErrMsg, aclrtGetLastError) and returns null.
aclrtBinary aclrtCreateBinary(const void*, size_t) {
    not_supported(__func__, kBinaryWhy);
    return nullptr;
}

// Binaries and the functions in them.
aclError aclrtBinaryLoad(const aclrtBinary, aclrtBinHandle*) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtBinaryLoadFromFile(const char*, aclrtBinaryLoadOptions*, aclrtBinHandle*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtBinaryLoadFromData(const void*, size_t, const aclrtBinaryLoadOptions*, aclrtBinHandle*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtBinaryUnLoad(aclrtBinHandle) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtDestroyBinary(aclrtBinary) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtBinaryGetFunction(const aclrtBinHandle, const char*, aclrtFuncHandle*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle, uint64_t, aclrtFuncHandle*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtBinaryGetGlobal(aclrtBinHandle, const char*, void**, size_t*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtBinaryGetDevAddress(const aclrtBinHandle, void**, size_t*) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtBinarySetExceptionCallback(aclrtBinHandle, aclrtOpExceptionCallback, void*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtRegisterCpuFunc(const aclrtBinHandle, const char*, const char*, aclrtFuncHandle*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtGetFuncBySymbol(const void*, aclrtFuncHandle*) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtGetFunctionAddr(aclrtFuncHandle, void**, void**) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtGetFunctionSize(aclrtFuncHandle, size_t*, size_t*) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtGetFunctionName(aclrtFuncHandle, uint32_t, char*) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtGetFunctionAttribute(aclrtFuncHandle, aclrtFuncAttribute, int64_t*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtFunctionGetBinary(const aclrtFuncHandle, aclrtBinHandle*) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtFunctionGetParamCount(const void*, size_t*) { return not_supported(__func__, kBinaryWhy); }
aclError aclrtFunctionGetParamInfo(const void*, size_t, size_t*, size_t*) {
    return not_supported(__func__, kBinaryWhy);
}
aclError aclrtFunctionGetAvailDynUbufPerBlock(void*, uint32_t, size_t*) { return not_supported(__func__, kBinaryWhy); }

// Kernel arguments and launches.
aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle, size_t*) { return not_supported(__func__, kLaunchWhy); }
aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle, size_t, size_t*) { return not_supported(__func__, kLaunchWhy); }
aclError aclrtKernelArgsInit(aclrtFuncHandle, aclrtArgsHandle*) { return not_supported(__func__, kLaunchWhy); }
aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle, aclrtArgsHandle, void*, size_t) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtKernelArgsAppend(aclrtArgsHandle, void*, size_t, aclrtParamHandle*) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle, aclrtParamHandle*) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle, aclrtParamHandle, size_t, void**) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle, aclrtParamHandle, void*, size_t) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtKernelArgsFinalize(aclrtArgsHandle) { return not_supported(__func__, kLaunchWhy); }
aclError aclrtLaunchKernel(aclrtFuncHandle, uint32_t, const void*, size_t, aclrtStream) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtLaunchKernelV2(aclrtFuncHandle, uint32_t, const void*, size_t, aclrtLaunchKernelCfg*, aclrtStream) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, aclrtArgsHandle,
                                     void*) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtLaunchKernelWithArgsArray(void*, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void**) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t,
                                       aclrtPlaceHolderInfo*, size_t) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtLaunchSIMTKernelWithArgsArray(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void**) {
    return not_supported(__func__, kLaunchWhy);
}
aclError aclrtLaunchSIMTKernelWithHostArgs(void*, dim3, dim3, size_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t,
                                           aclrtPlaceHolderInfo*, size_t) {
    return not_supported(__func__, kLaunchWhy);
}

// Device symbols.
aclError aclrtGetSymbolAddress(const void*, void**) { return not_supported(__func__, kSymbolWhy); }
aclError aclrtGetSymbolSize(const void*, size_t*) { return not_supported(__func__, kSymbolWhy); }
aclError aclrtMemcpyToSymbol(const void*, const void*, size_t, size_t, aclrtMemcpyKind) {
    return not_supported(__func__, kSymbolWhy);
}
aclError aclrtMemcpyToSymbolAsync(const void*, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream) {
    return not_supported(__func__, kSymbolWhy);
}
aclError aclrtMemcpyFromSymbol(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind) {
    return not_supported(__func__, kSymbolWhy);
}
aclError aclrtMemcpyFromSymbolAsync(void*, size_t, const void*, size_t, size_t, aclrtMemcpyKind, aclrtStream) {
    return not_supported(__func__, kSymbolWhy);
}

}  // extern "C"
