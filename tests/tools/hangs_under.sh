#!/bin/sh
# A fake host program that hangs under the schedule $1.  The sleep is a child
# holding stdout open: only killing the whole process group ends the run.
echo "fake program: started"
[ "$ACLCPU_SCHEDULE" = "$1" ] && sleep 30
echo "fake program: done"
