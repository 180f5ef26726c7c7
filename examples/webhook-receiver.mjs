// A Storefront webhook receiver (docs/events.md, "Webhooks"): verifies each delivery's Standard Webhooks
// signature with the `standardwebhooks` library, dedupes by webhook-id, answers fast.
//
//   STOREFRONT_WEBHOOK_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.mjs
//
// It prints one JSON line per new event ({"received": {id, type, createdAt, data}}) and one when it listens.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.STOREFRONT_WEBHOOK_SECRET); // the whsec_… shown when the webhook was created
const seen = new Set(); // use a table in real life: deliveries are at least once

async function handle(event) {
  process.stdout.write(`${JSON.stringify({ received: event })}\n`);
}

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', async () => {
    let event;
    try {
      // Checks the signature over the raw body and that webhook-timestamp is within 5 minutes.
      event = wh.verify(body, req.headers);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const id = req.headers['webhook-id'];
    if (!seen.has(id)) {
      await handle(event); // { id, type, createdAt, data }
      seen.add(id);
    }
    res.writeHead(204).end(); // answer fast; slow work belongs in a queue
  });
});

server.listen(Number(process.env.PORT ?? 4000), process.env.HOST ?? '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ listening: server.address().port })}\n`);
});
