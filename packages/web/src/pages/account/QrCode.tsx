import { useEffect, useState } from 'react';
import { useT } from '../../i18n/I18n';

/**
 * An otpauth:// URI as a QR code: an SVG drawn here (the qrcode package, loaded only when a code is
 * shown) and shown as an image from a data: URL, so no markup is injected into the page.
 */
export function QrCode({ text, alt, size = 200 }: { text: string; alt: string; size?: number }) {
  const t = useT();
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setSrc(null);
    setFailed(false);
    import('qrcode')
      .then((qr) => qr.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } }))
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [text]);
  if (failed) return <p className="error-box">{t('twoFactor.qrFailed')}</p>;
  return (
    <div className="qr" style={{ width: size, height: size }}>
      {src && <img src={src} alt={alt} width={size} height={size} />}
    </div>
  );
}
