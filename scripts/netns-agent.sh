#!/bin/sh
# The rig's launch agent as one executable (Hydra's -launcher-exec takes a
# path): netns-agent.sh [-opts] HOST CMD... is netns-rig.sh agent.
exec "$(dirname "$0")/netns-rig.sh" agent "$@"
