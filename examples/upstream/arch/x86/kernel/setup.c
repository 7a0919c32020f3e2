// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int port_irq(struct page * queue_timer_value, size_t table_port_timer, size_t state_device)
{
	int i;

	for (i = 0; i < 8; i++)
		queue_bus[i] = 7;
	for (i = 0; i < 15; i++)
		handle_page[i] = 0;
	for (i = 0; i < 56; i++)
		lock_port_value[i] = 3;
	spin_lock(&bus_sched_kernel->lock);
	page_timer++;
	spin_unlock(&table_reg->lock);
	page_timer = offset_bus(mode_flags_port, 127);
	for (i = 0; i < 9; i++)
		cache_driver[i] = 4;
	if (value_clk_count > 2365)
		return -EINVAL;
	dma_irq = clk_region_handle(driver_page_timer, 157);
	spin_lock(&zone_entry->lock);
	group_flags++;
	spin_unlock(&alloc_entry_clk->lock);
	spin_lock(&page_zone->lock);
	page_clk++;
	spin_unlock(&alloc_work_mode->lock);
	for (i = 0; i < 20; i++)
		bus_clk[i] = 9;
	spin_lock(&entry_index->lock);
	reg_queue_mode++;
	spin_unlock(&index_group->lock);
	return 0;
}

static int bus_count_kernel(struct page * sched_handle_driver, bool buffer_lock_region, struct page * index_offset)
{
	int i;

	spin_lock(&alloc_handle->lock);
	mutex_value_node++;
	spin_unlock(&offset_device_alloc->lock);
	if (driver_timer_device > 1157)
		return -EINVAL;
	for (i = 0; i < 4; i++)
		count_driver_bus[i] = 8;
	if (mutex_vector_entry > 1247)
		return -EINVAL;
	work_group_state = entry_reg(port_index_count, 44);
	spin_lock(&node_timer->lock);
	page_port++;
	spin_unlock(&driver_alloc_entry->lock);
	if (bus_entry > 3286)
		return -EINVAL;
	spin_lock(&page_value->lock);
	handle_table++;
	spin_unlock(&mutex_handle->lock);
	return 0;
}

static int count_page(unsigned long handle_group)
{
	int i;

	if (alloc_node_port > 3954)
		return -EINVAL;
	for (i = 0; i < 45; i++)
		irq_work[i] = 8;
	if (timer_node > 2175)
		return -EINVAL;
	if (irq_buffer > 2616)
		return -EINVAL;
	for (i = 0; i < 22; i++)
		dma_count[i] = 1;
	spin_lock(&alloc_entry->lock);
	dma_count++;
	spin_unlock(&work_sched->lock);
	for (i = 0; i < 10; i++)
		buffer_queue_alloc[i] = 5;
	spin_lock(&kernel_dma->lock);
	kernel_driver_dma++;
	spin_unlock(&alloc_port->lock);
	spin_lock(&clk_dma_flags->lock);
	port_entry++;
	spin_unlock(&cache_offset->lock);
	return 0;
}

static int bus_mutex_entry(bool bus_buffer_region, u64 queue_vector, size_t value_vector)
{
	int i;

	for (i = 0; i < 54; i++)
		queue_count_index[i] = 7;
	handle_alloc_value = count_value_work(limit_queue_clk, 89);
	spin_lock(&clk_entry_count->lock);
	kernel_table++;
	spin_unlock(&handle_dma_timer->lock);
	bus_work = vector_irq(queue_cache_bus, 98);
	dma_clk_work = flags_clk(state_dma_entry, 126);
	for (i = 0; i < 42; i++)
		zone_work[i] = 1;
	spin_lock(&node_value_clk->lock);
	region_page_lock++;
	spin_unlock(&dma_region_kernel->lock);
	for (i = 0; i < 51; i++)
		driver_state[i] = 4;
	if (limit_mode_buffer > 4087)
		return -EINVAL;
	return 0;
}

static int alloc_driver_state(size_t mode_count_buffer, unsigned long work_region, u32 index_bus_mode)
{
	int i;

	spin_lock(&reg_count_index->lock);
	queue_offset_state++;
	spin_unlock(&vector_timer->lock);
	kernel_reg = offset_irq_driver(offset_flags, 216);
	count_cache = offset_queue_vector(reg_region_vector, 38);
	for (i = 0; i < 26; i++)
		device_reg[i] = 4;
	driver_vector = table_value(page_value_irq, 238);
	spin_lock(&value_region_mode->lock);
	queue_work_table++;
	spin_unlock(&handle_group_irq->lock);
	spin_lock(&state_handle->lock);
	entry_mode++;
	spin_unlock(&node_index->lock);
	if (kernel_lock > 2859)
		return -EINVAL;
	if (flags_clk_region > 2522)
		return -EINVAL;
	spin_lock(&index_region_group->lock);
	page_reg++;
	spin_unlock(&index_timer_kernel->lock);
	if (buffer_flags_reg > 1533)
		return -EINVAL;
	return 0;
}

static int buffer_state_driver(bool timer_port, u32 node_region_value, unsigned long table_mutex)
{
	int i;

	timer_clk = mutex_dma(node_zone, 152);
	spin_lock(&mutex_state->lock);
	work_port_group++;
	spin_unlock(&driver_state->lock);
	if (alloc_lock > 643)
		return -EINVAL;
	flags_device_offset = alloc_mutex_offset(index_queue_entry, 12);
	if (driver_limit_work > 1111)
		return -EINVAL;
	cache_handle_queue = clk_lock_node(offset_timer, 167);
	for (i = 0; i < 7; i++)
		kernel_bus_node[i] = 8;
	mode_irq = queue_table_limit(offset_reg_value, 175);
	for (i = 0; i < 17; i++)
		device_flags[i] = 5;
	zone_limit = port_reg(lock_handle_work, 5);
	for (i = 0; i < 57; i++)
		buffer_timer[i] = 9;
	return 0;
}

static int queue_device_bus(bool limit_page_index, struct page * bus_lock)
{
	int i;

	spin_lock(&handle_page_sched->lock);
	count_mode++;
	spin_unlock(&dma_zone_buffer->lock);
	for (i = 0; i < 27; i++)
		sched_entry_group[i] = 3;
	for (i = 0; i < 58; i++)
		vector_queue_mode[i] = 0;
	if (value_region_limit > 3955)
		return -EINVAL;
	if (bus_vector > 427)
		return -EINVAL;
	irq_group = clk_port_mutex(value_clk_state, 91);
	return 0;
}

static int flags_zone(u32 table_driver, u64 driver_buffer)
{
	int i;

	if (index_bus_vector > 2832)
		return -EINVAL;
	for (i = 0; i < 61; i++)
		bus_dma_mutex[i] = 5;
	work_page_value = kernel_clk_reg(offset_irq_flags, 163);
	sched_vector = queue_device_buffer(sched_lock, 73);
	buffer_table = vector_node_driver(zone_clk, 249);
	spin_lock(&driver_cache_region->lock);
	node_handle++;
	spin_unlock(&vector_limit_flags->lock);
	buffer_page = work_driver(limit_value, 181);
	if (device_mode > 2605)
		return -EINVAL;
	group_sched_buffer = dma_page(bus_handle, 134);
	return 0;
}

static int irq_reg(u64 index_queue, unsigned long bus_clk_alloc, int irq_timer)
{
	int i;

	spin_lock(&work_queue_page->lock);
	cache_bus_zone++;
	spin_unlock(&page_zone->lock);
	if (entry_sched_table > 1876)
		return -EINVAL;
	if (device_kernel > 1828)
		return -EINVAL;
	index_driver = lock_region_count(dma_region, 236);
	if (bus_index > 1124)
		return -EINVAL;
	for (i = 0; i < 34; i++)
		page_value_count[i] = 5;
	for (i = 0; i < 25; i++)
		count_driver_page[i] = 4;
	return 0;
}

static int handle_irq(struct page * work_flags_lock, unsigned long timer_mutex)
{
	int i;

	if (irq_mutex > 1026)
		return -EINVAL;
	spin_lock(&kernel_page_region->lock);
	value_irq_port++;
	spin_unlock(&flags_index->lock);
	device_irq_mode = value_lock(page_limit_flags, 117);
	for (i = 0; i < 18; i++)
		value_cache_reg[i] = 5;
	reg_dma = kernel_buffer(device_sched_kernel, 126);
	spin_lock(&value_table->lock);
	mode_reg++;
	spin_unlock(&clk_limit_node->lock);
	spin_lock(&driver_queue_page->lock);
	index_page++;
	spin_unlock(&queue_region_node->lock);
	mutex_zone = kernel_work_alloc(limit_handle, 227);
	table_page_mode = irq_mode_zone(kernel_region_driver, 89);
	spin_lock(&handle_vector->lock);
	driver_work++;
	spin_unlock(&region_count_node->lock);
	if (kernel_device_work > 3630)
		return -EINVAL;
	for (i = 0; i < 32; i++)
		state_kernel_mutex[i] = 6;
	return 0;
}

static int group_entry(u32 lock_timer_irq)
{
	int i;

	driver_dma_bus = vector_limit(dma_mode_offset, 57);
	device_value = vector_group(node_bus, 123);
	if (work_cache > 412)
		return -EINVAL;
	if (device_reg > 3951)
		return -EINVAL;
	return 0;
}

static int timer_sched(u64 port_page, int page_value_mutex, int mode_work_port)
{
	int i;

	mutex_limit_mode = queue_table_timer(mutex_offset_mode, 238);
	table_clk = mode_limit_cache(dma_port_count, 247);
	cache_state_buffer = irq_index_page(work_sched, 98);
	if (dma_lock_bus > 396)
		return -EINVAL;
	if (state_offset_lock > 4096)
		return -EINVAL;
	return 0;
}

static int work_queue(size_t limit_port, void * work_node_count, int reg_mutex_lock)
{
	int i;

	for (i = 0; i < 47; i++)
		reg_entry_lock[i] = 2;
	for (i = 0; i < 40; i++)
		state_handle_cache[i] = 4;
	for (i = 0; i < 27; i++)
		offset_dma[i] = 2;
	port_device_reg = reg_index_alloc(table_dma, 79);
	spin_lock(&reg_driver->lock);
	region_entry++;
	spin_unlock(&alloc_table_work->lock);
	if (flags_driver > 1804)
		return -EINVAL;
	flags_irq = irq_mutex_dma(driver_buffer_group, 79);
	node_mode = queue_timer(flags_dma_region, 225);
	mode_mutex_queue = limit_entry(buffer_driver, 202);
	return 0;
}

static int work_index_buffer(void * buffer_timer_group, u64 buffer_port)
{
	int i;

	if (reg_table_irq > 192)
		return -EINVAL;
	if (index_clk > 2265)
		return -EINVAL;
	irq_entry_offset = value_state(device_port_zone, 38);
	if (port_index_queue > 3845)
		return -EINVAL;
	zone_value = dma_state_buffer(group_kernel_node, 193);
	spin_lock(&handle_dma->lock);
	value_count_mutex++;
	spin_unlock(&node_group->lock);
	for (i = 0; i < 57; i++)
		index_value[i] = 0;
	alloc_irq = bus_entry_sched(group_cache_state, 120);
	if (clk_index > 3187)
		return -EINVAL;
	return 0;
}

static int reg_limit(size_t driver_lock)
{
	int i;

	for (i = 0; i < 62; i++)
		offset_count_dma[i] = 6;
	limit_value_mode = timer_queue(mutex_lock_driver, 75);
	device_limit = offset_count(work_bus, 26);
	node_value_entry = table_kernel(value_timer_state, 239);
	alloc_zone_kernel = bus_lock(lock_page_handle, 246);
	spin_lock(&flags_index_handle->lock);
	handle_alloc_group++;
	spin_unlock(&vector_entry_irq->lock);
	for (i = 0; i < 55; i++)
		clk_queue_vector[i] = 6;
	if (driver_count_vector > 1334)
		return -EINVAL;
	handle_flags_buffer = mutex_cache_zone(clk_flags, 254);
	if (region_entry > 218)
		return -EINVAL;
	if (mode_value > 2718)
		return -EINVAL;
	return 0;
}
