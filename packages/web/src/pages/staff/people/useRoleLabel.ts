import type { Grant, Role } from '@judge/contract';
import { useT } from '../../../i18n/I18n';
import { memberKind } from './queries';

/** What a membership's role is called on the page: participant, co-teacher, or another role by its name. */
export function useRoleLabel(): (g: Grant, roles: Role[] | undefined) => string {
  const t = useT();
  return (g, roles) => {
    const kind = memberKind(g, roles);
    return kind === 'other' ? g.roleName : t(`staff.people.role.${kind}`);
  };
}
