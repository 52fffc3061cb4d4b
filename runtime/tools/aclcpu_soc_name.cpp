// aclcpu-soc-name: prints the SoC acl-cpu emulates (aclrtGetSocName, which
// answers before aclInit), for scripts that need CANN's SOC_VERSION --
// bin/setenv.bash sets SOC_VERSION from it.  Uses only the public API.
#include <cstdio>

#include "acl/acl.h"

int main() {
    const char* name = aclrtGetSocName();
    if (name == nullptr) {
        std::fprintf(stderr, "aclcpu-soc-name: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    std::puts(name);
    return 0;
}
