import { z } from 'zod';
import { api, parseAnswer } from '@/lib/api-client';

export const sandboxMailSchema = z.object({
  id: z.number(),
  messageId: z.string().catch(''),
  from: z.string().catch(''),
  to: z.string(),
  subject: z.string(),
  text: z.string().catch(''),
  html: z.string().catch(''),
  sentAt: z.string(),
});
export type SandboxMail = z.infer<typeof sandboxMailSchema>;

const mailListSchema = z.object({ sandbox: z.boolean(), messages: z.array(sandboxMailSchema) });
export type MailList = z.infer<typeof mailListSchema>;

export const mailApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSandboxMail: build.query<MailList, void>({
      query: () => '/mail/messages',
      transformResponse: (raw: unknown) => parseAnswer(mailListSchema, raw),
    }),
  }),
});

export const { useGetSandboxMailQuery } = mailApi;
