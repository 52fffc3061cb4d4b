// acl-cpu ops/common: the first include of every private header of the
// operator libraries.  Only their targets define ACLCPU_OPAPI_INTERNAL, so a
// file outside them that includes one of those headers stops here.
#if !defined(ACLCPU_OPAPI_INTERNAL)
#error Do not #include this internal file directly; it is private to the operator libraries.
#endif
