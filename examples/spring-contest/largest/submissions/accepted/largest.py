import sys
data = sys.stdin.read().split()
print(max(map(int, data[1:])))
