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

type ClientConstructor<C extends Client> = new (
  address: string,
  credentials: ChannelCredentials,
  options?: Partial<ClientOptions>,
) => C;

/** One long-lived channel per peer; grpc-js reconnects by itself. */
export function connectClient<C extends Client>(Ctor: ClientConstructor<C>, address: string): C {
  return new Ctor(address, credentials.createInsecure(), {
    "grpc.keepalive_time_ms": 30_000,
    "grpc.keepalive_timeout_ms": 10_000,
    "grpc.max_receive_message_length": 8 * 1024 * 1024,
    "grpc.max_send_message_length": 8 * 1024 * 1024,
  });
}

export type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: GrpcServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** Calls a unary method with a deadline; every call has one. */
export function callUnary<Req, Res>(
  client: Client,
  method: UnaryMethod<Req, Res>,
  request: Req,
  timeoutMs: number,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    method.call(client, request, new Metadata(), { deadline: Date.now() + timeoutMs }, (error, response) =>
      error ? reject(error) : resolve(response),
    );
  });
}
