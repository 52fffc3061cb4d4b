// acl-cpu HCCL: the first include of every private header of libhccl.  Only
// the library's target defines ACLCPU_HCCL_INTERNAL, so a file outside it that
// includes one of those headers stops here.
#if !defined(ACLCPU_HCCL_INTERNAL)
#error Do not #include this internal file directly; it is private to libhccl.
#endif
