// The floor of the compose benches: the SubmitMulti bodies GatewayClient.submitMulti would post for a draft
// (same keys, same order), which JSON.stringify is then timed over.

export interface DraftForBodies {
  sender: string;
  validityMinutes: number;
  dataCoding: string;
  text: string;
  recipients: string[];
  envelopes?: { to: string; message: string }[];
}

/** The bodies of the draft's send in calls of at most `chunk` envelopes (one body when it is the whole send). */
export function submitMultiBodies(draft: DraftForBodies, chunk = Number.POSITIVE_INFINITY): unknown[] {
  const all = draft.envelopes ?? draft.recipients.map((to) => ({ to, message: draft.text }));
  const bodies: unknown[] = [];
  for (let i = 0; i < all.length; i += chunk) {
    bodies.push({
      Credential: { Username: 'demo', Password: 'demo' },
      Header: { From: draft.sender, ValidityPeriod: draft.validityMinutes },
      Envelopes: all.slice(i, i + chunk).map((e) => ({ Message: e.message, To: e.to })),
      DataCoding: draft.dataCoding,
    });
  }
  return bodies;
}
