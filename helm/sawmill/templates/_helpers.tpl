{{/* Chart name, truncated to the 63 characters a label value allows. */}}
{{- define "sawmill.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: release-chart unless the release name already contains the chart name. */}}
{{- define "sawmill.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "sawmill.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selector labels: stable for the life of a release (selectors are immutable). */}}
{{- define "sawmill.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sawmill.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "sawmill.labels" -}}
helm.sh/chart: {{ include "sawmill.chart" . }}
{{ include "sawmill.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: consumer
{{- end }}

{{- define "sawmill.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sawmill.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "sawmill.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* The workload kind: a StatefulSet gives each pod a stable name for group.instance.id. */}}
{{- define "sawmill.workloadKind" -}}
{{- if .Values.staticMembership.enabled }}StatefulSet{{ else }}Deployment{{ end }}
{{- end }}

{{/* True when the pod needs an API token: only the rack-awareness init container reads the Node. */}}
{{- define "sawmill.needsNodeReader" -}}
{{- if and .Values.rackAwareness.enabled (eq .Values.rackAwareness.source "initContainer") }}true{{ end }}
{{- end }}

{{/*
CPU request as a whole number of processors, rounded up and at least 1: "500m" -> 1, "1" -> 1,
"1.5" -> 2, "2500m" -> 3. Feeds -XX:ActiveProcessorCount, because without a CPU limit the JVM
would see every core of the node.
*/}}
{{- define "sawmill.activeProcessorCount" -}}
{{- $cpu := toString (.Values.resources.requests.cpu | default "1") }}
{{- $cores := 0.0 }}
{{- if hasSuffix "m" $cpu }}
{{- $cores = divf (float64 (trimSuffix "m" $cpu)) 1000 }}
{{- else }}
{{- $cores = float64 $cpu }}
{{- end }}
{{- max 1 (int (ceil $cores)) }}
{{- end }}

{{- define "sawmill.javaToolOptions" -}}
{{- $opts := list (printf "-XX:ActiveProcessorCount=%s" (include "sawmill.activeProcessorCount" .)) }}
{{- with .Values.jvm.extraOptions }}{{ $opts = append $opts . }}{{ end }}
{{- join " " $opts }}
{{- end }}

{{/* A Duration in ms, s or m (the forms the schema allows) as whole seconds, rounded up. */}}
{{- define "sawmill.durationSeconds" -}}
{{- $d := toString . }}
{{- if hasSuffix "ms" $d }}
{{- int (ceil (divf (float64 (trimSuffix "ms" $d)) 1000)) }}
{{- else if hasSuffix "s" $d }}
{{- int (trimSuffix "s" $d) }}
{{- else if hasSuffix "m" $d }}
{{- mul (int (trimSuffix "m" $d)) 60 }}
{{- else }}
{{- fail (printf "sawmill.shutdownTimeout must be a Duration such as 30s, 500ms or 1m, but was %q" $d) }}
{{- end }}
{{- end }}

{{/* Fails the render when the configuration cannot work; called from the workload template. */}}
{{- define "sawmill.validate" -}}
{{- $shutdown := int (include "sawmill.durationSeconds" .Values.sawmill.shutdownTimeout) }}
{{- $needed := add $shutdown .Values.preStopSleepSeconds }}
{{- if le (int .Values.terminationGracePeriodSeconds) $needed }}
{{- fail (printf "terminationGracePeriodSeconds must be greater than preStopSleepSeconds + sawmill.shutdownTimeout (%d s), but was %d" $needed (int .Values.terminationGracePeriodSeconds)) }}
{{- end }}
{{- if and (eq .Values.kafka.groupProtocol "classic") (gt (mul 3 (int .Values.kafka.heartbeatIntervalMs)) (int .Values.kafka.sessionTimeoutMs)) }}
{{- fail (printf "kafka.heartbeatIntervalMs must be at most a third of kafka.sessionTimeoutMs (%d), but was %d" (int .Values.kafka.sessionTimeoutMs) (int .Values.kafka.heartbeatIntervalMs)) }}
{{- end }}
{{- if and .Values.autoscaling.keda.enabled .Values.autoscaling.hpa.enabled }}
{{- fail "autoscaling.keda.enabled and autoscaling.hpa.enabled are exclusive: enable one" }}
{{- end }}
{{- if .Values.guaranteedQos.enabled }}
{{- $cpu := toString .Values.resources.requests.cpu }}
{{- if not (regexMatch "^[1-9][0-9]*$" $cpu) }}
{{- fail (printf "guaranteedQos.enabled needs resources.requests.cpu to be a whole number of CPUs (e.g. \"2\") for the static CPU manager, but was %q" $cpu) }}
{{- end }}
{{- end }}
{{- if and .Values.rackAwareness.enabled (eq .Values.rackAwareness.source "initContainer") (not .Values.serviceAccount.create) (not .Values.serviceAccount.name) }}
{{- fail "rackAwareness.source=initContainer needs a ServiceAccount bound to the node reader role: set serviceAccount.create=true" }}
{{- end }}
{{- end }}

{{/*
Largest useful replica count for an autoscaler: ceil(partitions / concurrency), never above the
partition count. A consumer beyond that gets no partition.
*/}}
{{- define "sawmill.maxUsefulReplicas" -}}
{{- $p := int .Values.kafka.partitions }}
{{- $c := int .Values.sawmill.concurrency }}
{{- div (sub (add $p $c) 1) $c }}
{{- end }}

{{/*
The autoscaler's maxReplicas: capped at the useful count in a consumer group; as given in a share
group, whose consumers share partitions.
*/}}
{{- define "sawmill.autoscalerMaxReplicas" -}}
{{- if eq .root.Values.sawmill.consumption.mode "share" }}
{{- int .max }}
{{- else }}
{{- min (int .max) (int (include "sawmill.maxUsefulReplicas" .root)) }}
{{- end }}
{{- end }}

{{/* The share group's id: sawmill.consumption.shareGroupId, else sawmill.groupId. */}}
{{- define "sawmill.shareGroupId" -}}
{{- .Values.sawmill.consumption.shareGroupId | default .Values.sawmill.groupId }}
{{- end }}

{{/* The container resources, with limits equal to requests in Guaranteed QoS mode. */}}
{{- define "sawmill.resources" -}}
{{- if .Values.guaranteedQos.enabled }}
requests:
  cpu: {{ .Values.resources.requests.cpu | quote }}
  memory: {{ .Values.resources.requests.memory | quote }}
limits:
  cpu: {{ .Values.resources.requests.cpu | quote }}
  memory: {{ .Values.resources.requests.memory | quote }}
{{- else }}
{{- toYaml .Values.resources }}
{{- end }}
{{- end }}

{{/* Affinity: the user's, plus the zone-aware preferences when enabled. */}}
{{- define "sawmill.affinity" -}}
{{- $aff := deepCopy .Values.affinity }}
{{- if .Values.zoneAware.enabled }}
{{- $z := .Values.zoneAware }}
{{- if $z.redisPodAffinity.matchLabels }}
{{- $term := dict "labelSelector" (dict "matchLabels" $z.redisPodAffinity.matchLabels) "topologyKey" $z.topologyKey }}
{{- with $z.redisPodAffinity.namespaces }}{{ $_ := set $term "namespaces" . }}{{ end }}
{{- $pa := default dict (get $aff "podAffinity") }}
{{- $pref := default list (get $pa "preferredDuringSchedulingIgnoredDuringExecution") }}
{{- $pref = append $pref (dict "weight" (int $z.redisPodAffinity.weight) "podAffinityTerm" $term) }}
{{- $_ := set $pa "preferredDuringSchedulingIgnoredDuringExecution" $pref }}
{{- $_ := set $aff "podAffinity" $pa }}
{{- end }}
{{- if $z.preferredZone }}
{{- $expr := dict "key" $z.topologyKey "operator" "In" "values" (list $z.preferredZone) }}
{{- $na := default dict (get $aff "nodeAffinity") }}
{{- $pref := default list (get $na "preferredDuringSchedulingIgnoredDuringExecution") }}
{{- $pref = append $pref (dict "weight" (int $z.preferredZoneWeight) "preference" (dict "matchExpressions" (list $expr))) }}
{{- $_ := set $na "preferredDuringSchedulingIgnoredDuringExecution" $pref }}
{{- $_ := set $aff "nodeAffinity" $na }}
{{- end }}
{{- end }}
{{- if $aff }}{{ toYaml $aff }}{{ end }}
{{- end }}

{{- define "sawmill.topologySpreadConstraints" -}}
{{- $tsc := list }}
{{- $selector := dict "matchLabels" (fromYaml (include "sawmill.selectorLabels" .)) }}
{{- range $domain := list .Values.topologySpread.nodes .Values.topologySpread.zones }}
{{- if $domain.enabled }}
{{- $tsc = append $tsc (dict "maxSkew" (int $domain.maxSkew) "topologyKey" $domain.topologyKey "whenUnsatisfiable" $domain.whenUnsatisfiable "labelSelector" $selector) }}
{{- end }}
{{- end }}
{{- $tsc = concat $tsc .Values.topologySpreadConstraints }}
{{- if $tsc }}{{ toYaml $tsc }}{{ end }}
{{- end }}
