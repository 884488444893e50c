{{/* Name of the chart, overridable. */}}
{{- define "cc.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name of the release's objects; component names are appended to it. */}}
{{- define "cc.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
The four services: values key, name (also the container command's directory), the
environment variable of its port, whether it may have an Ingress, and the only paths an
Ingress routes to it: each service's PUBLIC_PATH_PREFIXES (src/paths.ts of each service; the
chart test compares the two): its API, /content/v1 for the public content stylesheet that
storefronts load, and for white-label-api what the embedded editor loads (its bundle, design
previews, the price list). /docs is added per ingress.docs. /metrics, /healthz and /readyz
stay inside the cluster. `bodyLimits`: the config keys of the largest request body each
accepts (the Ingress's body-size annotation). `queues`: the queues whose jobs it runs, what KEDA scales it on
(generated from libs/queue's QUEUES by `npm run gen:queues`; edit there).
*/}}
{{- define "cc.components" -}}
catalogueApi: { name: catalogue-api, portEnv: CATALOGUE_API_PORT, api: true, paths: [/api/v1, /api/v2, /content/v1], bodyLimits: [HTTP_BODY_LIMIT, HTTP_IMPORT_BODY_LIMIT] }
whiteLabelApi: { name: white-label-api, portEnv: WHITE_LABEL_API_PORT, api: true, paths: [/api/v3, /content/v1, /editor/v1, /design-preview/v1, /public/credit], bodyLimits: [HTTP_BODY_LIMIT] }
creditService: { name: credit-service, portEnv: CREDIT_SERVICE_PORT, api: true, paths: [/public/credit], bodyLimits: [HTTP_BODY_LIMIT], queues: [credit-settlement] }
generationWorker: { name: generation-worker, portEnv: GENERATION_WORKER_PORT, api: false, paths: [], queues: [render-content, generate, listing-enrichment, sweep-stale-work, webhook-relay, webhook-delivery] }
{{- end -}}

{{/*
The queues by what a failing job means (libs/queue's QueueClass; generated from QUEUES by
`npm run gen:queues`, edit there): each class has its own alert, and `webhook` (one eshop's
receiver) pages nobody.
*/}}
{{- define "cc.queueClasses" -}}
work: [render-content, generate, listing-enrichment]
settlement: [credit-settlement]
housekeeping: [sweep-stale-work, webhook-relay]
webhook: [webhook-delivery]
{{- end -}}

{{/* PromQL matcher of the queues of a class: queue=~"a|b". Call with (dict "root" $ "class" "work"). */}}
{{- define "cc.queueMatcher" -}}
queue=~"{{ join "|" (index (fromYaml (include "cc.queueClasses" .root)) .class) }}"
{{- end -}}

{{- define "cc.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "cc.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: {{ include "cc.name" . }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
The object's annotations: `commonAnnotations`, then the object's own (which win). Call with
(dict "root" $ "extra" <map or nil>); renders nothing when both are empty.
*/}}
{{- define "cc.annotations" -}}
{{- $all := merge (dict) (.extra | default dict) (.root.Values.commonAnnotations | default dict) -}}
{{- with $all }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{- define "cc.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cc.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Labels of one component; call with (dict "root" $ "component" "catalogue-api"). */}}
{{- define "cc.componentLabels" -}}
{{ include "cc.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cc.componentSelectorLabels" -}}
{{ include "cc.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
The image: [registry/]repository, then @digest or :tag (the chart's appVersion by default).
global.imageRegistry (an umbrella chart's) wins over image.registry.
*/}}
{{- define "cc.image" -}}
{{- $registry := default .Values.image.registry (.Values.global | default dict).imageRegistry -}}
{{- $first := first (splitList "/" .Values.image.repository) -}}
{{- if and $registry (contains "/" .Values.image.repository) (or (contains "." $first) (contains ":" $first) (eq $first "localhost")) -}}
{{- fail (printf "image.repository %q already names a registry (%s), and a registry is set (global.imageRegistry or image.registry: %s): give the repository without its registry" .Values.image.repository $first $registry) -}}
{{- end -}}
{{- $repository := ternary (printf "%s/%s" (trimSuffix "/" $registry) .Values.image.repository) .Values.image.repository (not (empty $registry)) -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* Pull secrets of every pod: global.imagePullSecrets (names or {name}), then imagePullSecrets. */}}
{{- define "cc.imagePullSecrets" -}}
{{- $secrets := list -}}
{{- range (.Values.global | default dict).imagePullSecrets -}}
{{- $secrets = append $secrets (ternary (dict "name" .) . (kindIs "string" .)) -}}
{{- end -}}
{{- range .Values.imagePullSecrets -}}
{{- if not (has . $secrets) -}}{{- $secrets = append $secrets . -}}{{- end -}}
{{- end -}}
{{- with $secrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{- define "cc.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "cc.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding DATABASE_URL, DATABASE_READ_URL, REDIS_URL, OPENAI_API_KEY and REDIS_SENTINEL_PASSWORD. */}}
{{- define "cc.secretName" -}}
{{- default (printf "%s-secrets" (include "cc.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/*
Which pods read each variable (files/readers.yaml, generated from libs/config's table): a pod
gets only what its process reads. Call with (dict "root" $ "name" "LOG_LEVEL" "component" "catalogue-api").
*/}}
{{- define "cc.reads" -}}
{{- $readers := fromYaml (.root.Files.Get "files/readers.yaml") -}}
{{- if not (hasKey $readers .name) -}}
{{- fail (printf "%s: not in files/readers.yaml (npm run gen:config)" .name) -}}
{{- end -}}
{{- if has .component (index $readers .name) }}true{{ end -}}
{{- end -}}

{{/*
A config value as the services read it, exactly as written: YAML numbers arrive as float64,
which toString writes as 1.048576e+06 (an integer is written as one, a decimal as itself).
*/}}
{{- define "cc.envValue" -}}
{{- if kindIs "float64" . -}}
{{- if eq . (float64 (int64 .)) }}{{ int64 . | toString }}{{ else }}{{ toString . }}{{ end -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{/*
Data of a component's ConfigMap: the `config` keys and the ports its process reads. Never a
secret. Call with (dict "root" $ "component" "catalogue-api").
*/}}
{{- define "cc.configData" -}}
{{- $root := .root -}}
{{- $component := .component -}}
{{- range $key, $value := $root.Values.config }}
{{- if include "cc.reads" (dict "root" $root "name" $key "component" $component) }}
{{ $key }}: {{ include "cc.envValue" $value | quote }}
{{- end }}
{{- end }}
{{- range $key, $c := fromYaml (include "cc.components" $root) }}
{{- if include "cc.reads" (dict "root" $root "name" $c.portEnv "component" $component) }}
{{ $c.portEnv }}: {{ (index $root.Values $key).port | toString | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Data of the chart-made Secret (when no existingSecret). */}}
{{- define "cc.secretData" -}}
DATABASE_URL: {{ required "secrets.databaseUrl is required (or set secrets.existingSecret)" .Values.secrets.databaseUrl | b64enc | quote }}
{{- if .Values.secrets.databaseReadUrl }}
DATABASE_READ_URL: {{ .Values.secrets.databaseReadUrl | b64enc | quote }}
{{- end }}
REDIS_URL: {{ required "secrets.redisUrl is required (or set secrets.existingSecret)" .Values.secrets.redisUrl | b64enc | quote }}
{{- if .Values.secrets.openaiApiKey }}
OPENAI_API_KEY: {{ .Values.secrets.openaiApiKey | b64enc | quote }}
{{- end }}
{{- if .Values.secrets.redisSentinelPassword }}
REDIS_SENTINEL_PASSWORD: {{ .Values.secrets.redisSentinelPassword | b64enc | quote }}
{{- end }}
{{- end -}}

{{/*
Environment of every container: its component's ConfigMap, then `extraEnvFrom`, then the
component's own `extraEnvFrom` (later entries win). Call with (dict "root" $ "name" "catalogue-api" "component" $v).
*/}}
{{- define "cc.envFrom" -}}
- configMapRef:
    name: {{ include "cc.fullname" .root }}-{{ .name }}-config
{{- with .root.Values.extraEnvFrom }}
{{ toYaml . }}
{{- end }}
{{- with .component.extraEnvFrom }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
The secret variables the component reads (files/readers.yaml), each from its key of the
Secret: the chart's (keys named like the variables) or `secrets.existingSecret` (keys from
`secrets.existingSecretKeys`). Call with (dict "root" $ "component" "catalogue-api"
"secretName" … "extraEnv" …).
*/}}
{{- define "cc.secretEnv" -}}
{{- $root := .root -}}
{{- $keys := ternary .root.Values.secrets.existingSecretKeys (dict "databaseUrl" "DATABASE_URL" "databaseReadUrl" "DATABASE_READ_URL" "redisUrl" "REDIS_URL" "openaiApiKey" "OPENAI_API_KEY" "redisSentinelPassword" "REDIS_SENTINEL_PASSWORD") (not (empty .root.Values.secrets.existingSecret)) -}}
{{- /* A variable the component's extraEnv sets is left to it (one entry per name). */ -}}
{{- $own := list -}}
{{- range .extraEnv }}{{ $own = append $own .name }}{{ end -}}
{{- $reads := dict -}}
{{- range $name := list "DATABASE_URL" "DATABASE_READ_URL" "REDIS_URL" "OPENAI_API_KEY" "REDIS_SENTINEL_PASSWORD" -}}
{{- if and (include "cc.reads" (dict "root" $root "name" $name "component" $.component)) (not (has $name $own)) -}}
{{- $_ := set $reads $name true -}}
{{- end -}}
{{- end -}}
{{- if $reads.DATABASE_URL }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef: { name: {{ .secretName }}, key: {{ $keys.databaseUrl }} }
{{- end }}
{{- if $reads.DATABASE_READ_URL }}
- name: DATABASE_READ_URL
  valueFrom:
    # Optional: without a read replica every read goes to DATABASE_URL.
    secretKeyRef: { name: {{ .secretName }}, key: {{ $keys.databaseReadUrl }}, optional: true }
{{- end }}
{{- if $reads.REDIS_URL }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef: { name: {{ .secretName }}, key: {{ $keys.redisUrl }} }
{{- end }}
{{- if $reads.OPENAI_API_KEY }}
- name: OPENAI_API_KEY
  valueFrom:
    # Only the openai provider needs it (cc.validate checks that it is given then).
    secretKeyRef: { name: {{ .secretName }}, key: {{ $keys.openaiApiKey }}, optional: true }
{{- end }}
{{- if and .root.Values.config.REDIS_SENTINELS $reads.REDIS_SENTINEL_PASSWORD }}
- name: REDIS_SENTINEL_PASSWORD
  valueFrom:
    # Sentinels may run without a password.
    secretKeyRef: { name: {{ .secretName }}, key: {{ default "REDIS_SENTINEL_PASSWORD" $keys.redisSentinelPassword }}, optional: true }
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by every pod of the release. */}}
{{- define "cc.priorityClassName" -}}
{{- $name := default .root.Values.priorityClassName .component.priorityClassName -}}
{{- with $name }}
priorityClassName: {{ . }}
{{- end }}
{{- end -}}

{{/*
A component's affinity: its own when set, else a preferred anti-affinity spreading its pods
over nodes (a node drain or loss then takes one replica, not all).
*/}}
{{- define "cc.affinity" -}}
{{- if .values.affinity -}}
{{ toYaml .values.affinity }}
{{- else -}}
podAntiAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "cc.componentSelectorLabels" (dict "root" .root "component" .component) | nindent 12 }}
{{- end -}}
{{- end -}}

{{/* Fails the render on combinations that would start pods that cannot work. */}}
{{- define "cc.validate" -}}
{{- if and .Values.config.REDIS_CLUSTER_NODES .Values.config.REDIS_SENTINELS -}}
{{- fail "config.REDIS_CLUSTER_NODES and config.REDIS_SENTINELS exclude each other: set one Redis topology" -}}
{{- end -}}
{{- if .Values.networkPolicy.enabled -}}
{{- $egress := .Values.networkPolicy.extraEgress -}}
{{- if empty $egress -}}
{{- fail "networkPolicy.enabled needs networkPolicy.extraEgress rules for PostgreSQL and Redis: without them every pod is cut off from its database" -}}
{{- end -}}
{{- if not .Values.secrets.existingSecret -}}
{{- range $name := list "databaseUrl" "databaseMigrationUrl" -}}
{{- with index $.Values.secrets $name -}}
{{- $host := (urlParse .).host -}}
{{- $port := ternary (last (splitList ":" $host)) "5432" (contains ":" $host) -}}
{{- $open := false -}}
{{- range $egress -}}
{{- if not .ports -}}{{- $open = true -}}{{- end -}}
{{- range .ports -}}{{- if eq (toString .port) $port -}}{{- $open = true -}}{{- end -}}{{- end -}}
{{- end -}}
{{- if not $open -}}
{{- fail (printf "networkPolicy.extraEgress has no rule for the database port %s (secrets.%s): every pod would be cut off from PostgreSQL" $port $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range $key := list "generationWorker" "creditService" -}}
{{- $v := index $.Values $key -}}
{{- if and $v.keda.enabled $v.autoscaling.enabled -}}
{{- fail (printf "%s.keda.enabled and %s.autoscaling.enabled both scale it: KEDA makes its own HPA, turn one off" $key $key) -}}
{{- end -}}
{{- end -}}
{{- if and (eq (toString .Values.config.GENERATION_PROVIDER) "openai") (not .Values.secrets.existingSecret) (not .Values.secrets.openaiApiKey) -}}
{{- fail "GENERATION_PROVIDER=openai needs secrets.openaiApiKey or an existingSecret with OPENAI_API_KEY" -}}
{{- end -}}
{{- end -}}

{{/* PromQL label matchers of this release's scrape targets (ServiceMonitor below). */}}
{{- define "cc.promSelector" -}}
namespace="{{ .Release.Namespace }}",service=~"{{ include "cc.fullname" . }}-.+"
{{- end -}}


{{/*
The largest of a component's body limits (config values like 5mb, 512kb), as ingress-nginx
writes a size (32m, 512k): its proxy-body-size, so the Ingress refuses no body the service
accepts (ingress-nginx refuses anything over 1m by default, with an HTML 413).
Call with (dict "root" $ "component" $c).
*/}}
{{- define "cc.bodySize" -}}
{{- $largest := 0 -}}
{{- $size := "1m" -}}
{{- range .component.bodyLimits -}}
{{- $limit := lower (toString (index $.root.Values.config .)) -}}
{{- $n := int (regexFind "^[0-9]+" $limit) -}}
{{- $kb := ternary (mul $n 1024) $n (hasSuffix "mb" $limit) -}}
{{- if gt $kb $largest -}}
{{- $largest = $kb -}}
{{- $size = printf "%d%s" $n (ternary "m" "k" (hasSuffix "mb" $limit)) -}}
{{- end -}}
{{- end -}}
{{- $size -}}
{{- end -}}

{{/*
The container securityContext of every container: `securityContext`, with each field that
`containerSecurityContext` (the name other charts use) sets replacing its own. Set field by
field, not with mergeOverwrite, which would skip a `false` (readOnlyRootFilesystem: false).
*/}}
{{- define "cc.containerSecurityContext" -}}
{{- $context := deepCopy (.Values.securityContext | default dict) -}}
{{- range $key, $value := (.Values.containerSecurityContext | default dict) -}}
{{- $_ := set $context $key $value -}}
{{- end -}}
{{- toYaml $context -}}
{{- end -}}

{{/*
Labels of a pod template: the selector labels, the version, `commonLabels`, then the
component's `podLabels`. Call with (dict "root" $ "component" "catalogue-api" "podLabels" $v.podLabels).
*/}}
{{- define "cc.podLabels" -}}
{{- $labels := dict -}}
{{- range $k, $v := (.root.Values.commonLabels | default dict) }}{{ $_ := set $labels $k $v }}{{ end -}}
{{- $_ := set $labels "app.kubernetes.io/version" (.root.Chart.AppVersion | toString) -}}
{{- range $k, $v := (.podLabels | default dict) }}{{ $_ := set $labels $k $v }}{{ end -}}
{{- range $k, $v := fromYaml (include "cc.componentSelectorLabels" (dict "root" .root "component" .component)) }}{{ $_ := set $labels $k $v }}{{ end -}}
{{- toYaml $labels -}}
{{- end -}}

{{/*
A probe's settings: `probes.<kind>` with each field the component's `probes.<kind>` sets
replacing its own (field by field, so a 0 wins too). Call with (dict "root" $ "values" $v "kind" "liveness").
*/}}
{{- define "cc.probe" -}}
{{- $probe := deepCopy (index .root.Values.probes .kind | default dict) -}}
{{- range $key, $value := (index (.values.probes | default dict) .kind | default dict) -}}
{{- $_ := set $probe $key $value -}}
{{- end -}}
{{- toYaml $probe -}}
{{- end -}}

{{/*
The paths an Ingress host routes: the chart's paths of the API (and /docs), or the host's own
`paths`, each of which must be one of them or under one. Call with (dict "key" "catalogueApi"
"host" $h "paths" $paths "pathType" $v.ingress.pathType); renders a YAML list of {path, pathType}.
*/}}
{{- define "cc.ingressPaths" -}}
{{- $out := list -}}
{{- if .host.paths -}}
{{- range $i, $p := .host.paths -}}
{{- $path := ternary $p (dict "path" $p) (kindIs "map" $p) -}}
{{- $ok := false -}}
{{- range $.paths -}}
{{- if or (eq $path.path .) (hasPrefix (printf "%s/" .) $path.path) -}}{{- $ok = true -}}{{- end -}}
{{- end -}}
{{- if not $ok -}}
{{- fail (printf "%s.ingress: host %s routes %s, which is not a path of this API (its paths: %s); /metrics and the probes are never routed" $.key $.host.host $path.path (join ", " $.paths)) -}}
{{- end -}}
{{- $out = append $out (dict "path" $path.path "pathType" (default $.pathType $path.pathType)) -}}
{{- end -}}
{{- else -}}
{{- range .paths -}}
{{- $out = append $out (dict "path" . "pathType" $.pathType) -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}
