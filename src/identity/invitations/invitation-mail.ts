import type { MailMessage } from '../../mail/mailer';

export const INVITATION_SUBJECT_PREFIX = 'You are invited to';

export function invitationMessage(
  to: string,
  input: { workspaceName: string; inviter: string; roleName: string; link: string },
): MailMessage {
  return {
    to,
    subject: `${INVITATION_SUBJECT_PREFIX} ${input.workspaceName}`,
    text: [
      'Hello,',
      '',
      `${input.inviter} invited this address to the workspace "${input.workspaceName}" as ${input.roleName}.`,
      'Open this link to accept (it works once, for 7 days). With an account of this address, sign in',
      'first; without one, the link lets you choose your name and password:',
      '',
      input.link,
      '',
      'If you do not want to join, ignore this message: nobody joins a workspace without accepting.',
    ].join('\n'),
  };
}
