/*
 * acl-cpu: AscendCL on the CPU.
 *
 * acl/acl_mdl.h -- a compatibility header, empty as CANN's runtime ships it:
 * the model API (aclmdl*) comes with another CANN package, which
 * replaces this file.  acl-cpu does not provide that API.
 */
