/** Measuring the offset of the server's clock from this machine's, NTP-style, from one request's times. */

export interface OffsetSample {
  /** Server time minus local time, in ms. */
  offset: number;
  /** The round trip it was measured over: the offset is right to within half of it. */
  roundTrip: number;
}

/** One measurement from the local times around a request and the server time it answered with. */
export function sampleOffset(sentAt: number, serverTime: number, receivedAt: number): OffsetSample {
  return { offset: serverTime - (sentAt + receivedAt) / 2, roundTrip: Math.max(0, receivedAt - sentAt) };
}

/** The best of several samples: the one measured over the shortest round trip. */
export function bestSample(samples: OffsetSample[]): OffsetSample | undefined {
  return samples.reduce<OffsetSample | undefined>((best, s) => (!best || s.roundTrip < best.roundTrip ? s : best), undefined);
}
