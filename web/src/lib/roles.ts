/** User roles fixed by the spec. */
const Role = { user: 1, admin: 10, root: 100 } as const;

export interface RoleHolder {
  role: number;
}

export const isAdmin = (user: RoleHolder | null | undefined): boolean => !!user && user.role >= Role.admin;

export const isRoot = (user: RoleHolder | null | undefined): boolean => !!user && user.role >= Role.root;
