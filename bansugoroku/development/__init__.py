"""What `make run` and `make test` need on a developer's machine and production never
imports (an import contract says so): the devserver that runs web, worker and beat in
one terminal, the mail backend that keeps each message as a file, and the embedded
PostgreSQL started on demand."""
