import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  type Resource,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";

/**
 * What every span and metric of this process is attributed to: the SDK's own attributes, then
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (on Kubernetes the pod, namespace and
 * Deployment; service.version, see service-version.ts), the process (pid, runtime, command) and
 * the host, and last `serviceName`, which wins.
 */
export function telemetryResource(serviceName: string): Resource {
  return defaultResource()
    .merge(detectResources({ detectors: [envDetector, processDetector, hostDetector] }))
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }));
}
