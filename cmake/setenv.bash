# Installed as <prefix>/bin/setenv.bash, the script CANN's example build
# scripts source: the environment of <prefix>/set_env.sh, plus what those
# scripts read next --
#   SOC_VERSION        the SoC acl-cpu emulates (ACLCPU_SOC, else its
#                      default), unless already set;
#   ASCENDC_CMAKE_DIR  where ascendc.cmake is: a stand-in that lets projects
#                      which include it configure, and stops with a message at
#                      the first Ascend C kernel library they declare.
_aclcpu_bin="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
# shellcheck source=/dev/null
source "${_aclcpu_bin}/../set_env.sh"
if [ -z "${SOC_VERSION:-}" ]; then
  SOC_VERSION="$("${_aclcpu_bin}/aclcpu-soc-name")" && export SOC_VERSION
fi
export ASCENDC_CMAKE_DIR="${ASCEND_HOME_PATH}/tikcpp/ascendc_kernel_cmake"
unset _aclcpu_bin
