{{/* The pod template shared by the Deployment and the StatefulSet. */}}
{{- define "sawmill.podTemplate" -}}
{{- $rackInit := include "sawmill.needsNodeReader" . -}}
metadata:
  labels:
    {{- include "sawmill.selectorLabels" . | nindent 4 }}
    {{- with .Values.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    prometheus.io/path: /actuator/prometheus
    prometheus.io/port: "8080"
    {{- with .Values.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  serviceAccountName: {{ include "sawmill.serviceAccountName" . }}
  # The API token is mounted only for the rack-awareness init container, which reads its Node.
  automountServiceAccountToken: {{ ternary "true" "false" (eq $rackInit "true") }}
  {{- with .Values.imagePullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ . }}
    {{- end }}
  {{- end }}
  {{- with .Values.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
  securityContext:
    {{- toYaml (omit .Values.podSecurityContext "sysctls") | nindent 4 }}
    {{- with .Values.podSecurityContext.sysctls }}
    sysctls:
      {{- toYaml . | nindent 6 }}
    {{- end }}
  {{- with (include "sawmill.affinity" .) }}
  affinity:
    {{- . | nindent 4 }}
  {{- end }}
  {{- with (include "sawmill.topologySpreadConstraints" .) }}
  topologySpreadConstraints:
    {{- . | nindent 4 }}
  {{- end }}
  {{- with .Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- if $rackInit }}
  initContainers:
    - name: client-rack
      image: "{{ .Values.rackAwareness.initContainer.image.repository }}:{{ .Values.rackAwareness.initContainer.image.tag }}"
      imagePullPolicy: {{ .Values.rackAwareness.initContainer.image.pullPolicy }}
      command:
        - /bin/sh
        - -ec
        - |
          zone="$(kubectl get node "$NODE_NAME" -o jsonpath='{.metadata.labels.{{ replace "." "\\." .Values.rackAwareness.nodeLabel }}}')"
          if [ -z "$zone" ]; then
            echo "node $NODE_NAME has no {{ .Values.rackAwareness.nodeLabel }} label; client.rack stays unset" >&2
            : > /etc/sawmill/rack/rack.properties
          else
            printf 'spring.kafka.consumer.properties[client.rack]=%s\nsawmill.doctor.zone=%s\n' "$zone" "$zone" > /etc/sawmill/rack/rack.properties
          fi
      env:
        - name: NODE_NAME
          valueFrom:
            fieldRef:
              fieldPath: spec.nodeName
        # kubectl keeps its discovery cache under $HOME; the root filesystem is read-only.
        - name: HOME
          value: /tmp
      securityContext:
        {{- toYaml .Values.securityContext | nindent 8 }}
      resources:
        {{- toYaml .Values.rackAwareness.initContainer.resources | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        - name: rack
          mountPath: /etc/sawmill/rack
  {{- end }}
  containers:
    - name: sawmill
      image: {{ include "sawmill.image" . | quote }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      ports:
        - name: http
          containerPort: 8080
          protocol: TCP
      env:
        - name: JAVA_TOOL_OPTIONS
          value: {{ include "sawmill.javaToolOptions" . | quote }}
        {{- if not .Values.sawmill.routes }}
        - name: SAWMILL_TOPICS
          value: {{ join "," .Values.sawmill.topics | quote }}
        {{- end }}
        - name: SAWMILL_GROUP_ID
          value: {{ .Values.sawmill.groupId | quote }}
        - name: SAWMILL_CONCURRENCY
          value: {{ .Values.sawmill.concurrency | quote }}
        - name: SAWMILL_BATCH_SIZE
          value: {{ .Values.sawmill.batchSize | quote }}
        - name: SAWMILL_CONSUMPTION_MODE
          value: {{ .Values.sawmill.consumption.mode | quote }}
        {{- with .Values.sawmill.consumption.shareGroupId }}
        - name: SAWMILL_CONSUMPTION_SHARE_GROUP_ID
          value: {{ . | quote }}
        {{- end }}
        {{- if not .Values.sawmill.routes }}
        - name: SAWMILL_MAPPING_KEY_TEMPLATE
          value: {{ .Values.sawmill.mapping.keyTemplate | quote }}
        {{- with .Values.sawmill.mapping.fields }}
        - name: SAWMILL_MAPPING_FIELDS
          value: {{ join "," . | quote }}
        {{- end }}
        {{- with .Values.sawmill.mapping.ttl }}
        - name: SAWMILL_MAPPING_TTL
          value: {{ . | quote }}
        {{- end }}
        {{- end }}
        {{- if not (kindIs "invalid" .Values.sawmill.pipeline.maxCommandsPerChunk) }}
        - name: SAWMILL_PIPELINE_MAX_COMMANDS_PER_CHUNK
          value: {{ .Values.sawmill.pipeline.maxCommandsPerChunk | quote }}
        {{- end }}
        {{- with .Values.sawmill.pipeline.timeout }}
        - name: SAWMILL_PIPELINE_TIMEOUT
          value: {{ . | quote }}
        {{- end }}
        - name: SAWMILL_SHUTDOWN_TIMEOUT
          value: {{ .Values.sawmill.shutdownTimeout | quote }}
        - name: SPRING_KAFKA_BOOTSTRAP_SERVERS
          value: {{ .Values.kafka.bootstrapServers | quote }}
        - name: SPRING_KAFKA_CONSUMER_AUTO_OFFSET_RESET
          value: {{ .Values.kafka.autoOffsetReset | quote }}
        {{- if eq .Values.kafka.groupProtocol "consumer" }}
        # KIP-848: the broker owns the session timeout and the assignment.
        - name: SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_PROTOCOL
          value: consumer
        {{- else if not .Values.staticMembership.enabled }}
        # A killed pod's partitions move after this, not after Kafka's 45 s default (docs/kubernetes.md).
        - name: SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS
          value: {{ .Values.kafka.sessionTimeoutMs | quote }}
        - name: SPRING_KAFKA_CONSUMER_PROPERTIES_HEARTBEAT_INTERVAL_MS
          value: {{ .Values.kafka.heartbeatIntervalMs | quote }}
        {{- end }}
        {{- with .Values.kafka.securityProtocol }}
        - name: SPRING_KAFKA_SECURITY_PROTOCOL
          value: {{ . | quote }}
        {{- end }}
        {{- with .Values.kafka.sasl.mechanism }}
        - name: SPRING_KAFKA_PROPERTIES_SASL_MECHANISM
          value: {{ . | quote }}
        {{- end }}
        {{- with .Values.kafka.sasl.existingSecret }}
        - name: SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG
          valueFrom:
            secretKeyRef:
              name: {{ . }}
              key: {{ $.Values.kafka.sasl.jaasConfigKey }}
        {{- end }}
        {{- if .Values.kafka.tls.caSecret }}
        - name: SPRING_KAFKA_SSL_TRUST_STORE_TYPE
          value: PEM
        - name: SPRING_KAFKA_SSL_TRUST_STORE_LOCATION
          value: "file:/etc/sawmill/kafka-ca/{{ .Values.kafka.tls.caKey }}"
        {{- end }}
        - name: SPRING_DATA_REDIS_HOST
          value: {{ .Values.redis.host | quote }}
        - name: SPRING_DATA_REDIS_PORT
          value: {{ .Values.redis.port | quote }}
        {{- with .Values.redis.username }}
        - name: SPRING_DATA_REDIS_USERNAME
          value: {{ . | quote }}
        {{- end }}
        {{- with .Values.redis.existingSecret }}
        - name: SPRING_DATA_REDIS_PASSWORD
          valueFrom:
            secretKeyRef:
              name: {{ . }}
              key: {{ $.Values.redis.passwordKey }}
        {{- end }}
        - name: SPRING_DATA_REDIS_SSL_ENABLED
          value: {{ .Values.redis.ssl | quote }}
        {{- if .Values.rackAwareness.enabled }}
        {{- if eq .Values.rackAwareness.source "downwardApi" }}
        - name: SPRING_KAFKA_CONSUMER_PROPERTIES_CLIENT_RACK
          valueFrom:
            fieldRef:
              fieldPath: "metadata.labels['{{ .Values.rackAwareness.podLabel }}']"
        # this pod's zone for the doctor's redis.zone finding (docs/operations.md#doctor-findings)
        - name: SAWMILL_DOCTOR_ZONE
          valueFrom:
            fieldRef:
              fieldPath: "metadata.labels['{{ .Values.rackAwareness.podLabel }}']"
        {{- else }}
        - name: SPRING_CONFIG_IMPORT
          value: "optional:file:/etc/sawmill/rack/rack.properties"
        {{- end }}
        {{- end }}
        {{- if .Values.staticMembership.enabled }}
        - name: SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_INSTANCE_ID
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        {{- if ne .Values.kafka.groupProtocol "consumer" }}
        - name: SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS
          value: {{ .Values.staticMembership.sessionTimeoutMs | quote }}
        - name: SPRING_KAFKA_CONSUMER_PROPERTIES_HEARTBEAT_INTERVAL_MS
          value: {{ .Values.kafka.heartbeatIntervalMs | quote }}
        {{- end }}
        {{- end }}
        {{- if not (or .Values.autoscaling.keda.enabled .Values.autoscaling.hpa.enabled) }}
        # the doctor compares sawmill.concurrency x replicas with the partitions (kafka.partitions finding)
        - name: SAWMILL_DOCTOR_REPLICAS
          value: {{ .Values.replicaCount | quote }}
        {{- end }}
        {{- $appJson := deepCopy .Values.extraProperties }}
        {{- with .Values.sawmill.routes }}
        {{- $_ := set $appJson "sawmill" (dict "routes" .) }}
        {{- end }}
        {{- with $appJson }}
        - name: SPRING_APPLICATION_JSON
          value: {{ toJson . | quote }}
        {{- end }}
        {{- with .Values.extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      startupProbe:
        httpGet:
          path: /actuator/health/liveness
          port: http
        periodSeconds: {{ .Values.probes.startup.periodSeconds }}
        failureThreshold: {{ .Values.probes.startup.failureThreshold }}
      livenessProbe:
        httpGet:
          path: /actuator/health/liveness
          port: http
        periodSeconds: {{ .Values.probes.liveness.periodSeconds }}
        timeoutSeconds: {{ .Values.probes.liveness.timeoutSeconds }}
        failureThreshold: {{ .Values.probes.liveness.failureThreshold }}
      readinessProbe:
        httpGet:
          path: /actuator/health/readiness
          port: http
        periodSeconds: {{ .Values.probes.readiness.periodSeconds }}
        timeoutSeconds: {{ .Values.probes.readiness.timeoutSeconds }}
        failureThreshold: {{ .Values.probes.readiness.failureThreshold }}
      lifecycle:
        preStop:
          exec:
            command: ["sh", "-c", "sleep {{ .Values.preStopSleepSeconds }}"]
      resources:
        {{- include "sawmill.resources" . | nindent 8 }}
      securityContext:
        {{- toYaml .Values.securityContext | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        {{- if .Values.kafka.tls.caSecret }}
        - name: kafka-ca
          mountPath: /etc/sawmill/kafka-ca
          readOnly: true
        {{- end }}
        {{- if $rackInit }}
        - name: rack
          mountPath: /etc/sawmill/rack
          readOnly: true
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: {{ .Values.tmpSizeLimit }}
    {{- if .Values.kafka.tls.caSecret }}
    - name: kafka-ca
      secret:
        secretName: {{ .Values.kafka.tls.caSecret }}
    {{- end }}
    {{- if $rackInit }}
    - name: rack
      emptyDir:
        sizeLimit: 1Mi
    {{- end }}
{{- end }}
