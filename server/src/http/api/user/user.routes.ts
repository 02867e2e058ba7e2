import type { RouteModule } from '../route-kit.js';

export const userRoutes: RouteModule = () => {};
