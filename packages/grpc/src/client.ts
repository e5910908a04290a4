import {
  type CallOptions,
  type ChannelCredentials,
  type Client,
  type ClientOptions,
  type ClientUnaryCall,
  credentials,
  type ServiceError as GrpcServiceError,
  Metadata,
} from "@grpc/grpc-js";
import { retryConfig } from "./idempotent-methods.ts";

type ClientConstructor<C extends Client> = new (
  address: string,
  credentials: ChannelCredentials,
  options?: Partial<ClientOptions>,
) => C;

/** A generated client that knows the deadline of its calls. */
export type DeadlineClient<C extends Client = Client> = C & {
  /** Deadline of every call through `callUnary`, in milliseconds from the call. */
  readonly deadlineMs: number;
};

/**
 * Every call goes to the next ready address of the target in turn (`round_robin`), not all of them to
 * the first that answered (grpc-js's default `pick_first`): a target that names several replicas — a
 * headless Kubernetes Service, whose DNS name resolves to every ready pod, or `ipv4:a:p,b:p` as
 * `npm start -- --replicas` gives — gets the load spread over them. Servers age connections out
 * (create-server.ts), which makes the client resolve the name again and find new replicas. A read
 * that fails UNAVAILABLE (its replica died under it) is sent again, to the next replica
 * (idempotent-methods.ts); a write never is.
 */
const SERVICE_CONFIG = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }], ...retryConfig() });

/**
 * The longest wait between two attempts to reconnect to a peer's address. grpc-js backs off 1 s, then
 * 1.6 times longer each time up to two minutes: a replica back after a few minutes away (restarted in
 * place, or all of a ClusterIP Service's pods) would be used again up to two minutes later, and one
 * restarted while its twin was replaced got no calls while it mattered (the rolling-upgrade test).
 * Capped, an address that is back is used within about this; an attempt to one that is not costs a
 * refused TCP connection.
 */
export const RECONNECT_BACKOFF_MAX_MS = 2_000;

/**
 * One long-lived channel per peer (grpc-js reconnects by itself), whose calls
 * through `callUnary` each get `deadlineMs` (from the caller's configuration).
 */
export function connectClient<C extends Client>(
  Ctor: ClientConstructor<C>,
  address: string,
  options: { deadlineMs: number },
): DeadlineClient<C> {
  const client = new Ctor(address, credentials.createInsecure(), {
    "grpc.keepalive_time_ms": 30_000,
    "grpc.keepalive_timeout_ms": 10_000,
    "grpc.max_reconnect_backoff_ms": RECONNECT_BACKOFF_MAX_MS,
    "grpc.max_receive_message_length": 8 * 1024 * 1024,
    "grpc.max_send_message_length": 8 * 1024 * 1024,
    "grpc.service_config": SERVICE_CONFIG,
  });
  return Object.assign(client, { deadlineMs: options.deadlineMs });
}

export type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: GrpcServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** The names of a client's unary methods (not an index signature's: a generic client has one). */
type UnaryName<C> = keyof {
  // biome-ignore lint/suspicious/noExplicitAny: any request and response: only the shape of the method counts here.
  [K in keyof C as string extends K ? never : C[K] extends UnaryMethod<any, any> ? K : never]: true;
} &
  string;
/** A unary method's request and response (a generated client overloads it; the last overload says). */
type RequestOf<C, K extends keyof C> = C[K] extends UnaryMethod<infer Req, unknown> ? Req : never;
type ResponseOf<C, K extends keyof C> = C[K] extends UnaryMethod<never, infer Res> ? Res : never;

/**
 * Calls the unary method `method` of `client` under the client's deadline; every call has one.
 * `options.deadlineMs` overrides it for a call with a bound of its own (a readiness probe, a
 * re-seal of every secret).
 */
export function callUnary<C extends Client, K extends UnaryName<C>>(
  client: DeadlineClient<C>,
  method: K,
  request: RequestOf<C, K>,
  options: { deadlineMs?: number } = {},
): Promise<ResponseOf<C, K>> {
  const deadline = Date.now() + (options.deadlineMs ?? client.deadlineMs);
  const send = client[method] as unknown as UnaryMethod<RequestOf<C, K>, ResponseOf<C, K>>;
  return new Promise((resolve, reject) => {
    send.call(client, request, new Metadata(), { deadline }, (error, response) =>
      error ? reject(error) : resolve(response),
    );
  });
}
