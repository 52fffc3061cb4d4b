/*
 * acl-cpu: AscendCL on the CPU.
 *
 * acl/acl_op.h -- a compatibility header, empty as CANN's runtime ships it:
 * the single-operator API (aclop*) comes with another CANN package, which
 * replaces this file.  acl-cpu does not provide that API.
 */
