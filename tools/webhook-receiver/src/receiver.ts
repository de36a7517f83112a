import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

/**
 * What a provider's receiver does with our webhooks: verify the Standard Webhooks signature
 * with the endpoint's secret, answer 2xx, deduplicate by `webhook-id`. It prints each event as
 * it arrives; deliveries run concurrently, so a consumer orders them by
 * `data.locationEventSequence`. Usage: WEBHOOK_SECRET=whsec_... PORT=4000 pnpm receiver
 */
const secret = process.env.WEBHOOK_SECRET ?? '';
if (!/^whsec_[A-Za-z0-9+/]+=*$/.test(secret)) {
  // Started with no secret (or an error body where the secret should be), it would refuse every delivery.
  process.stderr.write(
    'WEBHOOK_SECRET must be the whsec_... secret that PUT /webhook-endpoint answered; the receiver did not start\n',
  );
  process.exit(2);
}
const webhook = new Webhook(secret);
const seen = new Set<string>();

createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(200).end('ready\n');
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    try {
      const event = webhook.verify(body, req.headers as Record<string, string>) as {
        type: string;
        data: object;
      };
      const id = String(req.headers['webhook-id']);
      if (!seen.has(id)) console.log(`verified ${event.type} ${JSON.stringify(event.data)}`);
      seen.add(id);
      res.writeHead(204).end();
    } catch {
      console.log('refused a delivery whose signature does not verify');
      res.writeHead(400).end();
    }
  });
}).listen(Number(process.env.PORT ?? 4000), '127.0.0.1');
