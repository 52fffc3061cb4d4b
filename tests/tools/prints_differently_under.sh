#!/bin/sh
# A fake host program whose second line of stdout differs under the schedule
# $1 (say adversarial:3), as a program with a missing event would print a
# wrong result.  Further arguments are ignored (the replay command shows them).
echo "fake program: started"
if [ "$ACLCPU_SCHEDULE" = "$1" ]; then
  echo "fake program: result 2"
else
  echo "fake program: result 1"
fi
echo "fake program: stderr under $ACLCPU_SCHEDULE" >&2
