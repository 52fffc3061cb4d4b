#!/bin/sh
# A fake host program whose stdout and exit status are the same under every
# schedule, but which, under the schedule $1 and only with the race checker on
# and not fatal (ACLCPU_CHECK=race ACLCPU_CHECK_FATAL=0), writes a race
# report on stderr the way acl-cpu's checker does.  $1 = fifo: a race the
# reference run reports.
echo "fake program: result 1"
if [ "$ACLCPU_SCHEDULE" = "$1" ] && [ "${ACLCPU_CHECK-}" = race ] && [ "${ACLCPU_CHECK_FATAL-}" = 0 ]; then
  echo "acl-cpu: data race on device memory bytes [0x1000, 0x1400) (1024 bytes)" >&2
  echo "  earlier: aclnnAdd on stream 1" >&2
  echo "  later:   aclnnMul on stream 2" >&2
fi
exit 0
