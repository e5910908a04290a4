// The baseline of DESIGN §10: a bare Fastify route that reads the body and answers JSON.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.post("/bare", async (_request, reply) => reply.code(201).send({ status: "created" }));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.stdout.write(`${address}\n`);
