// A webhook receiver that verifies the Standard Webhooks headers (webhook-id, webhook-timestamp,
// webhook-signature) with the published library, for a webhook with `standardWebhooks` on.
//   npm install standardwebhooks
//   WEBHOOK_SECRET=... PORT=4000 node receiver.mjs
// Answers 204 to a verified POST and prints the event; 401 otherwise: a bad or missing signature,
// or a timestamp more than 5 minutes from this machine's clock (a replayed delivery).
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error('Set WEBHOOK_SECRET to the webhook secret.');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);

// The library takes the key as whsec_<base64>. A secret the service generated has that form: pass
// it as it is. A secret you chose is keyed with its UTF-8 bytes: whsec_ + their base64 (the dialog
// shows the value the library takes beside the secret).
const webhook = new Webhook(
  secret.startsWith('whsec_') ? secret : `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`,
);

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    // Verify the bytes as received, before parsing: re-serialised JSON would not match.
    const rawBody = Buffer.concat(chunks);
    let event;
    try {
      if (request.method !== 'POST') throw new Error('not a POST');
      // Checks webhook-timestamp against the clock (5 minutes either way), then each v1 signature
      // of webhook-signature (two during a secret rotation's grace period): one must match.
      event = webhook.verify(rawBody, request.headers);
    } catch (error) {
      console.log(`refused: ${request.method} ${request.url} (${error.message})`);
      response.writeHead(401).end();
      return;
    }
    // webhook-id is the event id: the same on every retry and resend. Handle each id once.
    console.log(
      `verified ${request.headers['x-webhook-event']} ${request.headers['webhook-id']} ` +
        `delivery=${request.headers['x-service-delivery-id']}`,
    );
    console.log(JSON.stringify(event, null, 2));
    response.writeHead(204).end();
  });
});

server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/`));
