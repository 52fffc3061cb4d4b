#!/bin/sh
# A fake host program that is killed by SIGTERM under the schedule $1.
echo "fake program: done"
[ "$ACLCPU_SCHEDULE" = "$1" ] && kill -TERM $$
exit 0
