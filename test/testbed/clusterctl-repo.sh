#!/usr/bin/env bash
# A local clusterctl repository (cmd/clusterctl/client/repository/repository_local.go: {basepath}/
# {provider-label}/{version}/{components file} + metadata.yaml) for the management-cluster upgrade scenario
# (issue 32 §2, testbed.sh upgrade): what `clusterctl upgrade apply` would download from the providers'
# release pages, which the testbed's network namespace cannot reach, built from the Go modules the current
# release set pins (no download but the Go module proxy's, before the namespace is entered):
#   cluster-api/<v>/core-components.yaml                 kustomize build core/config/default
#   bootstrap-kubeadm/<v>/bootstrap-components.yaml      kustomize build bootstrap/kubeadm/config/default
#   control-plane-kubeadm/<v>/control-plane-components.yaml  kustomize build controlplane/kubeadm/config/default
#   infrastructure-openstack/<capo>/infrastructure-components.yaml  (CAPO's config/default; clusterctl reads
#                                                        its metadata.yaml for the contract check of a
#                                                        provider it does not upgrade)
# each with the module's metadata.yaml and the release image names (what the Makefiles' release-manifests
# targets set with `kustomize edit set image`); OUT/clusterctl.yaml points clusterctl at them; and
# OUT/cert-manager-crds.yaml, cert-manager's own CRDs (go/cert-manager), because the components hold
# cert-manager Certificates and Issuers.
#
#   clusterctl-repo.sh OUT_DIR     prints the Cluster API version it wrote
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: clusterctl-repo.sh OUT_DIR}
export GOPROXY=${KAAS_GOPROXY:-https://proxy.golang.org} GOTOOLCHAIN=local GOFLAGS=-mod=readonly
die() { echo "clusterctl-repo.sh: $*" >&2; exit 1; }
command -v kubectl >/dev/null || die "kubectl (with its kustomize) is not on PATH"
mod() { # wrapper-module module -> "dir version" (downloaded if the build did not)
  (cd "$HERE/go/$1" && go mod download "$2" && go list -m -f '{{.Dir}} {{.Version}}' "$2") || die "go list -m $2 in test/testbed/go/$1 failed"
}
read -r CAPI CAPI_V <<<"$(mod current/k8s sigs.k8s.io/cluster-api)"
read -r CAPO CAPO_V <<<"$(mod current/capo sigs.k8s.io/cluster-api-provider-openstack)"
read -r CM CM_V <<<"$(mod cert-manager github.com/cert-manager/cert-manager)"

rm -rf "$OUT.new"; mkdir -p "$OUT.new"
component() { # label version module-dir kustomize-dir file staging-image release-image
  local dir="$OUT.new/$1/$2"
  mkdir -p "$dir"
  cp "$3/metadata.yaml" "$dir/metadata.yaml"
  kubectl kustomize "$3/$4" 2>/dev/null | sed "s|image: $6|image: $7|" > "$dir/$5"
  grep -q "image: $7\$" "$dir/$5" || die "$1 $2: no Deployment image $7 in the kustomize build of $4"
}
R=registry.k8s.io/cluster-api
component cluster-api "$CAPI_V" "$CAPI" core/config/default core-components.yaml \
  gcr.io/k8s-staging-cluster-api/cluster-api-controller:main "$R/cluster-api-controller:$CAPI_V"
component bootstrap-kubeadm "$CAPI_V" "$CAPI" bootstrap/kubeadm/config/default bootstrap-components.yaml \
  gcr.io/k8s-staging-cluster-api/kubeadm-bootstrap-controller:main "$R/kubeadm-bootstrap-controller:$CAPI_V"
component control-plane-kubeadm "$CAPI_V" "$CAPI" controlplane/kubeadm/config/default control-plane-components.yaml \
  gcr.io/k8s-staging-cluster-api/kubeadm-control-plane-controller:main "$R/kubeadm-control-plane-controller:$CAPI_V"
component infrastructure-openstack "$CAPO_V" "$CAPO" config/default infrastructure-components.yaml \
  gcr.io/k8s-staging-capi-openstack/capi-openstack-controller:dev "registry.k8s.io/capi-openstack/capi-openstack-controller:$CAPO_V"

cat > "$OUT.new/clusterctl.yaml" <<EOF
# Written by test/testbed/clusterctl-repo.sh: the providers' repositories are local (built from the Go modules).
providers:
- {name: cluster-api, type: CoreProvider, url: "$OUT/cluster-api/$CAPI_V/core-components.yaml"}
- {name: kubeadm, type: BootstrapProvider, url: "$OUT/bootstrap-kubeadm/$CAPI_V/bootstrap-components.yaml"}
- {name: kubeadm, type: ControlPlaneProvider, url: "$OUT/control-plane-kubeadm/$CAPI_V/control-plane-components.yaml"}
- {name: openstack, type: InfrastructureProvider, url: "$OUT/infrastructure-openstack/$CAPO_V/infrastructure-components.yaml"}
EOF
for f in "$CM"/deploy/crds/*.yaml; do cat "$f"; echo '---'; done > "$OUT.new/cert-manager-crds.yaml"
[ "$(grep -c '^kind: CustomResourceDefinition' "$OUT.new/cert-manager-crds.yaml")" -ge 2 ] || die "no cert-manager CRDs in $CM/deploy/crds"
rm -rf "$OUT"; mv "$OUT.new" "$OUT"
echo "[clusterctl-repo] Cluster API $CAPI_V, CAPO $CAPO_V, cert-manager $CM_V CRDs in $OUT" >&2
echo "$CAPI_V"
