// A webhook receiver that checks X-Webhook-Signature, with Node.js alone (no packages).
//   WEBHOOK_SECRET=... PORT=4000 node receiver.mjs
// Answers 204 to a correctly signed POST and prints the event; 401 otherwise.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error('Set WEBHOOK_SECRET to the webhook secret.');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);

/** Lowercase hex HMAC-SHA256 of the raw body, compared in constant time. */
function signatureIsValid(rawBody, header) {
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'));
  const given = Buffer.from(String(header ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    // Check the bytes as received, before parsing: re-serialised JSON would not match.
    const rawBody = Buffer.concat(chunks);
    if (request.method !== 'POST' || !signatureIsValid(rawBody, request.headers['x-webhook-signature'])) {
      console.log(`refused: ${request.method} ${request.url} (bad or missing signature)`);
      response.writeHead(401).end();
      return;
    }
    const event = JSON.parse(rawBody.toString('utf8'));
    // Retries and resends carry the same event id: handle each id once.
    console.log(`verified ${event.event} ${event.id} delivery=${request.headers['x-service-delivery-id']}`);
    console.log(JSON.stringify(event, null, 2));
    response.writeHead(204).end();
  });
});

server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/`));
