import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ReceivedSmtpMail {
  from: string;
  to: string[];
  /** The DATA section: headers and body as sent. */
  data: string;
}

export interface FakeSmtpServer {
  url: string;
  mails: ReceivedSmtpMail[];
  /** The reply to `RCPT TO:<address>`; '250 OK' unless set. */
  replyToRecipient(reply: (address: string) => string): void;
  close(): Promise<void>;
}

/**
 * Just enough of an SMTP server (RFC 5321, no TLS, no auth) for nodemailer to hand it mail, so
 * the SMTP channel is tested against the real protocol and its real reply codes.
 */
export async function startFakeSmtpServer(): Promise<FakeSmtpServer> {
  const mails: ReceivedSmtpMail[] = [];
  let rcptReply = (_address: string): string => '250 OK';
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let inData = false;
    let mail: ReceivedSmtpMail = { from: '', to: [], data: '' };
    const reply = (line: string): void => void socket.write(`${line}\r\n`);
    reply('220 fake-smtp ESMTP');

    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(mail);
            mail = { from: '', to: [], data: '' };
            reply('250 queued');
          } else {
            mail.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fake-smtp');
        else if (verb === 'MAIL') {
          mail = { from: address, to: [], data: '' };
          reply('250 OK');
        } else if (verb === 'RCPT') {
          const answer = rcptReply(address);
          if (answer.startsWith('2')) mail.to.push(address);
          reply(answer);
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with .');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 5.5.1 Command unrecognized');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    replyToRecipient: (next) => {
      rcptReply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
