package mpi

import (
	"errors"
	"fmt"
	"os"

	"gompi/abi"
	"gompi/nameserv"
)

// published are the names this process published; Finalize unpublishes
// what is left.
var published = map[string]string{}

// PublishName publishes port under service (MPI_Publish_name).
func PublishName(service, port string) error {
	const call = "MPI_Publish_name"
	err := nameserv.Publish(nameserv.Dir(), service, nameserv.Entry{Port: port, JobID: os.Getenv("GOMPI_JOBID"), Pid: os.Getpid()})
	switch {
	case errors.Is(err, nameserv.ErrExists):
		return Raise(nil, abi.ErrService, call, fmt.Sprintf("service %q is already published", service))
	case err != nil:
		return Raise(nil, abi.ErrService, call, fmt.Sprintf("name service: %v", err))
	}
	published[service] = port
	return nil
}

// UnpublishName withdraws service (MPI_Unpublish_name).
func UnpublishName(service, port string) error {
	const call = "MPI_Unpublish_name"
	if err := nameserv.Unpublish(nameserv.Dir(), service, port); err != nil {
		return Raise(nil, abi.ErrService, call, fmt.Sprintf("service %q with port %q: %v", service, port, err))
	}
	delete(published, service)
	return nil
}

// LookupName finds the port published under service (MPI_Lookup_name).
func LookupName(service string) (string, error) {
	p, err := nameserv.Lookup(nameserv.Dir(), service)
	if err != nil {
		return "", Raise(nil, abi.ErrName, "MPI_Lookup_name", fmt.Sprintf("service %q: %v", service, err))
	}
	return p, nil
}

func unpublishAll() {
	for s, p := range published {
		nameserv.Unpublish(nameserv.Dir(), s, p)
		delete(published, s)
	}
}
