import { ProjectorPage } from './Boards';
export default ProjectorPage;
