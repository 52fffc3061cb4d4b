#!/bin/sh
# A fake host program that exits 3 under the schedule $1 and 0 under any
# other, printing the same stdout under all.
echo "fake program: done"
[ "$ACLCPU_SCHEDULE" = "$1" ] && exit 3
exit 0
