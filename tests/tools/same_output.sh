#!/bin/sh
# A fake host program whose stdout and exit status are the same under every
# schedule; its stderr names the schedule, which the explorer must not compare.
echo "fake program: result 1"
echo "fake program: schedule $ACLCPU_SCHEDULE" >&2
