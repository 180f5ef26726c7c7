import Fastify from 'fastify';
import pg from 'pg';

/**
 * The ceiling: a bare Fastify server answering the same URLs with the same bytes (the real
 * GET /products/{id} responses, fetched from the server under test and held in memory; with
 * --payload-ceiling every read scenario's responses too). No database, no auth, no validation, no
 * serialization: what this machine, Node and Fastify allow for that response under the same load.
 * Every scenario's throughput is reported as a ratio to it.
 *
 * The floor (PostgreSQL runs, --floor): `/floor/<n>/<url>` makes n sequential `SELECT 1` round
 * trips through a pg pool like the service's (10 connections) before sending the same bytes: what
 * any design that reads the database n times per request can reach here at best.
 */

interface ServeMessage {
  id: number;
  type: 'serve';
  port: number;
  routes: { path: string; body: string }[];
  databaseUrl: string | null;
}

const FLOOR = /^\/floor\/(\d+)(\/.*)$/;

async function serve(message: ServeMessage): Promise<void> {
  const bodies = new Map(message.routes.map((route) => [route.path, Buffer.from(route.body)]));
  const pool = message.databaseUrl ? new pg.Pool({ connectionString: message.databaseUrl, max: 10 }) : null;
  pool?.on('error', () => undefined);
  const app = Fastify({ logger: false });
  app.get('/*', async (request, reply) => {
    const floor = FLOOR.exec(request.url);
    if (floor && pool) for (let n = Number(floor[1]); n > 0; n--) await pool.query('SELECT 1');
    const body = bodies.get(floor ? floor[2] : request.url);
    if (!body) return reply.code(404).send();
    return reply.header('content-type', 'application/json; charset=utf-8').send(body);
  });
  app.addHook('onClose', async () => pool?.end());
  await app.listen({ host: '127.0.0.1', port: message.port });
}

if (process.send) {
  process.on('message', async (message: ServeMessage) => {
    if (message?.type !== 'serve') return;
    try {
      await serve(message);
      process.send?.({ id: message.id, ok: true, result: null });
    } catch (error) {
      process.send?.({ id: message.id, ok: false, error: String(error) });
    }
  });
  // The instrument preload unrefs the channel; this process lives for the bench's requests until it listens.
  process.channel?.ref();
  process.send({ ready: true });
}
