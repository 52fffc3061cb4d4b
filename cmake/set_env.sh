# Source this file to use the acl-cpu install tree as a CANN toolkit:
#   source <prefix>/set_env.sh
_aclcpu_home="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
export ASCEND_HOME_PATH="${_aclcpu_home}"
export ASCEND_TOOLKIT_HOME="${_aclcpu_home}"
export ASCEND_CUSTOM_PATH="${_aclcpu_home}"
export LD_LIBRARY_PATH="${_aclcpu_home}/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
export LIBRARY_PATH="${_aclcpu_home}/lib64${LIBRARY_PATH:+:${LIBRARY_PATH}}"
export CMAKE_PREFIX_PATH="${_aclcpu_home}${CMAKE_PREFIX_PATH:+:${CMAKE_PREFIX_PATH}}"
unset _aclcpu_home
