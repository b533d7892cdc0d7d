// cert-manager's CRDs (deploy/crds/*.yaml of github.com/cert-manager/cert-manager v1.21.1, the version
// clusterctl v1.14.2 installs: CertManagerDefaultVersion in cmd/clusterctl/client/config/cert_manager_client.go),
// for the management-cluster upgrade scenario (issue 32 §2, ../../clusterctl-repo.sh): the provider
// components clusterctl applies hold cert-manager Certificates and Issuers. Nothing is built from this
// module; only its zip is downloaded (go mod download, checked against go.sum). No cert-manager controller
// runs on the testbed: it serves the webhooks with its own CA (manifests.mjs).
module kaas.local/testbed/cert-manager

go 1.26

require github.com/cert-manager/cert-manager v1.21.1
