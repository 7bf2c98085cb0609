import type { MaintenanceState, SystemMessageType } from '@judge/contract';
import { useState } from 'react';
import { useT } from '../i18n/I18n';
import { useLiveFrames } from '../live/Live';
import { broadcastOf } from './broadcast';
import { useMaintenance } from './maintenance';
import './banners.css';

interface Broadcast {
  id: number;
  type: SystemMessageType;
  text: string;
}

let nextId = 0;

function MaintenanceBanner() {
  const t = useT();
  const level = useMaintenance();
  // the reason travels only with the event; /health gives the level alone
  const [reason, setReason] = useState<string | undefined>();
  useLiveFrames('maintenanceChanged', (d) => setReason((d.maintenance as MaintenanceState | undefined)?.reason));
  if (level === 'open') return null;
  return (
    <div className={`banner banner-maintenance banner-${level === 'closed' ? 'error' : 'warning'}`} data-maintenance={level}>
      <p>{t(level === 'closed' ? 'banner.maintenance.closed' : 'banner.maintenance.draining')}</p>
      {reason && <p className="banner-reason">{t('banner.maintenance.reason', { reason })}</p>}
    </div>
  );
}

function BroadcastBanner({ b, onDismiss }: { b: Broadcast; onDismiss(): void }) {
  const t = useT();
  return (
    <div className={`banner banner-${b.type}`} data-broadcast={b.type}>
      <p>
        <strong>{t(`banner.type.${b.type}`)}:</strong> <span className="banner-text">{b.text}</span>
      </p>
      <button type="button" className="banner-dismiss" onClick={onDismiss} aria-label={`${t('banner.dismiss')}: ${b.text}`}>
        ×
      </button>
    </div>
  );
}

/**
 * What the organisers tell everybody signed in: broadcasts (systemMessage, each dismissible) and
 * the maintenance level. One polite live region, present from the start so additions are read out.
 */
export function Banners() {
  const t = useT();
  const [broadcasts, setBroadcasts] = useState<Broadcast[]>([]);
  useLiveFrames('systemMessage', (d) => {
    const b = broadcastOf(d);
    if (b) setBroadcasts((list) => [...list, { id: ++nextId, ...b }]);
  });
  return (
    <section className="banners" aria-label={t('banner.region')} aria-live="polite">
      <MaintenanceBanner />
      {broadcasts.map((b) => (
        <BroadcastBanner key={b.id} b={b} onDismiss={() => setBroadcasts((list) => list.filter((x) => x.id !== b.id))} />
      ))}
    </section>
  );
}
