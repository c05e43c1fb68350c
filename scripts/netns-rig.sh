#!/bin/sh
# A multi-host rig on one machine: N network namespaces joined by veth pairs
# to a bridge (10.77.0.254 on the bridge, 10.77.0.i in namespace i).
#   netns-rig.sh up PREFIX N     create PREFIX1..PREFIXN and bridge PREFIXbr
#   netns-rig.sh down PREFIX N   kill whatever runs in them, remove everything
#   netns-rig.sh agent [-opts] HOST CMD...   launch agent with ssh's calling
#       convention (gompirun --launch-agent, Hydra's -launcher-exec): options
#       are ignored, the words of CMD are joined and run by sh, in namespace
#       PREFIX<i> for host n<i>, in a UTS namespace of its own whose hostname
#       is $GOMPI_RIG_HOSTNAME or else HOST
#   netns-rig.sh run CMD...      set up a 3-host rig, run CMD with
#       GOMPI_RIG_PREFIX set, tear the rig down; e.g.
#       netns-rig.sh run build/bin/gompirun --host n1:2,n2:2,n3:2 \
#           --launch-agent scripts/netns-agent.sh prog
# PREFIX for agent comes from $GOMPI_RIG_PREFIX. Names stay within 15 bytes.
# The rigs share 10.77.0.0/24: one at a time (tests/multinode holds a lock).
set -eu
cmd=${1:?usage: netns-rig.sh up|down|agent ...}
shift
case $cmd in
up)
    p=$1 n=$2
    ip link add "${p}br" type bridge
    ip addr add 10.77.0.254/24 dev "${p}br"
    ip link set "${p}br" up
    i=1
    while [ "$i" -le "$n" ]; do
        ip netns add "$p$i"
        ip link add "${p}h$i" type veth peer name "${p}v$i"
        ip link set "${p}h$i" master "${p}br"
        ip link set "${p}h$i" up
        ip link set "${p}v$i" netns "$p$i"
        ip -n "$p$i" link set "${p}v$i" name eth0
        ip -n "$p$i" addr add "10.77.0.$i/24" dev eth0
        ip -n "$p$i" link set eth0 up
        ip -n "$p$i" link set lo up
        i=$((i + 1))
    done
    ;;
down)
    p=$1 n=$2
    i=1
    while [ "$i" -le "$n" ]; do
        for pid in $(ip netns pids "$p$i" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
        ip netns del "$p$i" 2>/dev/null || true
        i=$((i + 1))
    done
    ip link del "${p}br" 2>/dev/null || true
    ;;
run)
    p="gmhr$$"
    if ! "$0" up "$p" 3 2>/dev/null; then
        "$0" down "$p" 3
        echo "netns-rig.sh: cannot set up the rig (needs root, ip(8) and network namespaces)" >&2
        exit 1
    fi
    trap '"$0" down "$p" 3' EXIT INT TERM
    GOMPI_RIG_PREFIX=$p "$@"
    ;;
agent)
    while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done # ssh options (Hydra passes -x)
    host=$1
    shift
    ns="${GOMPI_RIG_PREFIX:?}${host#n}"
    exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$0" && exec sh -c "$*"' "${GOMPI_RIG_HOSTNAME:-$host}" "$@"
    ;;
*)
    echo "netns-rig.sh: unknown command $cmd" >&2
    exit 2
    ;;
esac
