import type { Severity } from "@pulsegate/sdk";

export const SEVERITIES: Severity[] = ["sev0", "sev1", "sev2", "sev3", "sev4"];
