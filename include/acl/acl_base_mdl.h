/*
 * acl-cpu: AscendCL on the CPU.
 *
 * acl/acl_base_mdl.h -- a compatibility header, empty as CANN's runtime ships it:
 * basic types of the model API (aclmdl*) comes with another CANN package, which
 * replaces this file.  acl-cpu does not provide that API.
 */
