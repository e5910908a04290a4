import { ALERTMANAGER_LIMITS } from "@pulsegate/contract/limits";

/** Copy-paste examples for senders; the secret is always read from PULSEGATE_SECRET, never written in. */

const SIGN_SH = `openssl dgst -sha256 -hmac "$PULSEGATE_SECRET" | sed 's/^.*= //'`;

/** A no-op when the variable is set, a clear stop when it is not. */
const REQUIRE_SECRET = `: "\${PULSEGATE_SECRET:?set it to the webhook secret of the team}"`;

/** Single quotes for a shell word (URLs hold no quote, but never trust that). */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'"'"'`)}'`;

export function triggerSnippets(triggerUrl: string): { curl: string; node: string; python: string } {
  const curl = `${REQUIRE_SECRET}
BODY='{"title":"Disk almost full on db-1","severity":"sev2","group_key":"disk-db-1","metadata":{"env":"production"}}'
SIG=$(printf '%s' "$BODY" | ${SIGN_SH})
curl -sS -X POST ${shellQuote(triggerUrl)} \\
  -H 'Content-Type: application/json' -H "X-Webhook-Signature: $SIG" -d "$BODY"`;
  const node = `// Node 18+: PULSEGATE_SECRET=... node trigger.mjs
import { createHmac } from "node:crypto";

const body = JSON.stringify({ title: "Disk almost full on db-1", severity: "sev2", group_key: "disk-db-1" });
const signature = createHmac("sha256", process.env.PULSEGATE_SECRET).update(body).digest("hex");
const response = await fetch(${JSON.stringify(triggerUrl)}, {
  method: "POST",
  headers: { "content-type": "application/json", "x-webhook-signature": signature },
  body, // the exact bytes that were signed
});
console.log(response.status, await response.json());`;
  const python = `# Python 3: PULSEGATE_SECRET=... python3 trigger.py
import hashlib, hmac, json, os, urllib.request

body = json.dumps({"title": "Disk almost full on db-1", "severity": "sev2", "group_key": "disk-db-1"}).encode()
signature = hmac.new(os.environ["PULSEGATE_SECRET"].encode(), body, hashlib.sha256).hexdigest()
request = urllib.request.Request(
    ${JSON.stringify(triggerUrl)},
    data=body,  # the exact bytes that were signed
    method="POST",
    headers={"Content-Type": "application/json", "X-Webhook-Signature": signature},
)
with urllib.request.urlopen(request) as response:
    print(response.status, response.read().decode())`;
  return { curl, node, python };
}

/**
 * An Alertmanager webhook's receiver for alertmanager.yml (docs/integrations.md). The bearer token is
 * shown once, when the webhook is created or its token rotated: the receiver reads it from a file.
 */
export function alertmanagerSnippet(triggerUrl: string): string {
  return `receivers:
  - name: pulsegate
    webhook_configs:
      - url: ${JSON.stringify(triggerUrl)}
        send_resolved: true
        max_alerts: ${ALERTMANAGER_LIMITS.maxAlertsPerPayload}
        http_config:
          authorization:
            type: Bearer
            # The webhook's bearerToken (pgam_…), shown once at creation or rotation:
            credentials_file: /etc/alertmanager/pulsegate-token`;
}

export function pingSnippets(pingEndpoint: string): { curl: string; cron: string } {
  const url = shellQuote(pingEndpoint);
  const curl = `${REQUIRE_SECRET}
# Up: no body, signed over the empty string (that signature never changes).
curl -sS -X POST ${url} -H "X-Webhook-Signature: $(printf '' | ${SIGN_SH})"

# Down, with a reason: raises an incident at once.
BODY='{"status":"down","reason":"backup failed: disk full"}'
curl -sS -X POST ${url} -H 'Content-Type: application/json' \\
  -H "X-Webhook-Signature: $(printf '%s' "$BODY" | ${SIGN_SH})" -d "$BODY"`;
  const cron = `# crontab -e: ping up after each successful run (no % in the line: cron treats it specially)
PULSEGATE_SECRET=...
*/5 * * * *  /usr/local/bin/your-job.sh && curl -fsS -m 10 --retry 3 -X POST ${url} -H "X-Webhook-Signature: $(printf '' | ${SIGN_SH})" > /dev/null

# Or let the pulsegate CLI ping up or down (with the exit code and the output's tail):
# */5 * * * *  PULSEGATE_SECRET=... npx pulsegate run ${url} -- /usr/local/bin/your-job.sh`;
  return { curl, cron };
}

/**
 * For a webhook or monitor under Standard Webhooks: the reference library signs, with the team's
 * whsec_ key read from PULSEGATE_WHSEC (shown once beside the secret), never written in.
 */
export function standardWebhooksSnippets(url: string, body: object): { node: string; python: string } {
  const json = JSON.stringify(body);
  const node = `// Node 18+: npm install standardwebhooks; PULSEGATE_WHSEC=whsec_... node send.mjs
import { Webhook } from "standardwebhooks";

const body = ${JSON.stringify(json)};
const id = \`msg_\${crypto.randomUUID()}\`; // send the same id again to retry this message
const now = new Date();
const response = await fetch(${JSON.stringify(url)}, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(process.env.PULSEGATE_WHSEC).sign(id, now, body),
  },
  body, // the exact bytes that were signed
});
console.log(response.status, await response.json());`;
  const python = `# Python 3: pip install standardwebhooks; PULSEGATE_WHSEC=whsec_... python3 send.py
import os, urllib.request, uuid
from datetime import datetime, timezone
from standardwebhooks import Webhook

body = ${JSON.stringify(json)}
msg_id = f"msg_{uuid.uuid4()}"  # send the same id again to retry this message
now = datetime.now(tz=timezone.utc)
request = urllib.request.Request(
    ${JSON.stringify(url)},
    data=body.encode(),  # the exact bytes that were signed
    method="POST",
    headers={
        "Content-Type": "application/json",
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(os.environ["PULSEGATE_WHSEC"]).sign(msg_id, now, body),
    },
)
with urllib.request.urlopen(request) as response:
    print(response.status, response.read().decode())`;
  return { node, python };
}
