import JobSpec
