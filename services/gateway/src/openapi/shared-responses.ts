type Response = {
  description?: string;
  content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }>;
};
type Document = {
  paths?: Record<string, Record<string, { responses?: Record<string, Response | { $ref: string }> }>>;
  components?: { responses?: Record<string, Response> };
};

/** The name a shared response goes by: its status and first error code, e.g. `404-not_found`. */
function nameOf(status: string, response: Response, taken: Set<string>): string {
  const code = Object.values(response.content ?? {})[0]?.schema?.properties?.code?.enum?.[0];
  const base = code === undefined ? status : `${status}-${code}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/**
 * Moves every response that two or more operations answer alike (the error answers, mostly) to
 * `components.responses` and refers to it. Written out at each operation, they made the document
 * over 600 KB, which Swagger UI took seconds to parse and resolve on every load of /docs.
 */
export function shareRepeatedResponses(document: Document): Document {
  const seen = new Map<string, number>();
  const operations = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item));
  for (const operation of operations) {
    for (const response of Object.values(operation.responses ?? {})) {
      const key = JSON.stringify(response);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  const shared = document.components?.responses ?? {};
  const names = new Map<string, string>();
  const taken = new Set(Object.keys(shared));
  for (const operation of operations) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if ("$ref" in response) continue;
      const key = JSON.stringify(response);
      if ((seen.get(key) ?? 0) < 2) continue;
      let name = names.get(key);
      if (name === undefined) {
        name = nameOf(status, response, taken);
        names.set(key, name);
        shared[name] = response;
      }
      (operation.responses as Record<string, { $ref: string }>)[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  if (names.size > 0) document.components = { ...document.components, responses: shared };
  return document;
}
