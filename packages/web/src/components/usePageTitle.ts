import { useEffect } from 'react';
import { useInstance } from '../app/session';

/** Sets the tab's title to "page · instance", so tabs and history read well. */
export function usePageTitle(title: string | undefined): void {
  const instance = useInstance();
  const name = instance.data?.name ?? 'Judge';
  useEffect(() => {
    document.title = title ? `${title} · ${name}` : name;
  }, [title, name]);
}
