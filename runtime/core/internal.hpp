// acl-cpu runtime: the first include of every private header of
// libascendcl.  Only its target defines ACLCPU_RUNTIME_INTERNAL, so a file
// outside the library that includes one of those headers stops here.
#if !defined(ACLCPU_RUNTIME_INTERNAL)
#error Do not #include this internal file directly; it is private to libascendcl.
#endif
