// Signing in to the dashboard over HTTP, as a browser would, for tests that follow a session across gateways.

export type SignIn = { status: number; sessionId: string | undefined; retryAfter: string | null; text: string };

/** POSTs the sign-in form with `token`, from `address` (X-Forwarded-For: failed sign-ins are counted per client). */
export async function signIn(baseUrl: string, token: string, address = "192.0.2.1"): Promise<SignIn> {
  const response = await fetch(`${baseUrl}/dashboard/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
    body: new URLSearchParams({ token }).toString(),
  });
  const sessionId = /pulsegate_session=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1];
  return {
    status: response.status,
    sessionId,
    retryAfter: response.headers.get("retry-after"),
    text: await response.text(),
  };
}

/**
 * Whether `sessionId` is signed in on `baseUrl`: its teams page answers (200, or 303 to the key's
 * own team) instead of sending it to sign-in.
 */
export async function signedIn(baseUrl: string, sessionId: string | undefined): Promise<boolean> {
  const response = await fetch(`${baseUrl}/dashboard/teams`, {
    redirect: "manual",
    headers: { cookie: `pulsegate_session=${sessionId}` },
  });
  await response.arrayBuffer();
  if (response.status === 200) return true;
  if (response.status !== 303) throw new Error(`teams page answered ${response.status}`);
  return response.headers.get("location") !== "/dashboard/login";
}

/** Signs `sessionId` out through `baseUrl`'s form, with the CSRF token its teams page carries; the answer's status. */
export async function signOut(baseUrl: string, sessionId: string | undefined): Promise<number> {
  const page = await fetch(`${baseUrl}/dashboard/teams`, { headers: { cookie: `pulsegate_session=${sessionId}` } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error("the teams page carries no CSRF token");
  const response = await fetch(`${baseUrl}/dashboard/logout`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: `pulsegate_session=${sessionId}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: csrf }).toString(),
  });
  await response.arrayBuffer();
  return response.status;
}
