package launcher

import "strings"

// parseHostOption handles --host, --hostfile, --map-by and --launch-agent.
func (o *Options) parseHostOption(name, v string) error {
	switch name {
	case "host", "H", "hosts":
		hosts, err := ParseHostList(v)
		if err != nil {
			return usageErr("--host: %v", err)
		}
		for _, h := range hosts {
			o.Hosts = addHost(o.Hosts, h)
		}
	case "hostfile", "f", "machinefile":
		hosts, err := ReadHostfile(v)
		if err != nil {
			return usageErr("%v", err)
		}
		for _, h := range hosts {
			o.Hosts = addHost(o.Hosts, h)
		}
	case "map-by":
		// Open MPI allows modifiers (node:PE=2); only the policy matters here.
		p, _, _ := strings.Cut(strings.ToLower(v), ":")
		switch p {
		case MapBySlot, MapByCore, MapByNode:
			o.MapBy = p
		case "hwthread", "cpu":
			o.MapBy = MapByCore
		default:
			return usageErr("--map-by %q: use slot, core or node", v)
		}
	case "launch-agent":
		if len(strings.Fields(v)) == 0 {
			return usageErr("--launch-agent needs a command")
		}
		o.LaunchAgent = v
	}
	return nil
}

// checkHosts rejects host options that do not fit the rest of the line;
// without -n (npSet) a job across hosts fills their slots.
func (o *Options) checkHosts(npSet bool) error {
	if len(o.Hosts) == 0 {
		if o.MapBy != "" || o.LaunchAgent != "" {
			return usageErr("--map-by and --launch-agent go with --host or --hostfile")
		}
		return nil
	}
	if o.PerNode > 0 {
		// -N/-ppn: that many ranks on each host, whatever slots it lists.
		for i := range o.Hosts {
			o.Hosts[i].Slots = o.PerNode
		}
	}
	if !npSet {
		o.NP = TotalSlots(o.Hosts)
	}
	switch {
	case o.MPICHBinary:
		return usageErr("--mpich-binary runs on this node only")
	case len(o.CPUSet) > 0:
		return usageErr("--cpu-set applies to one node; not with --host")
	case o.ExecBound >= 0:
		return usageErr("--exec-bound is internal and takes only a program")
	}
	return nil
}
